"""Two to four real examples for every command and command group, each a shell line and why run it.

Kept out of the command modules so that they read as one page and change in one place; they end each
command's `--help` (as its epilog, attached only when help is shown: `help_text`) and fill the man
pages' EXAMPLES. A test parses every example with the command tree, so one naming an option that no
longer exists fails, and runs the ones on `sample-dump` (scripts/make_sample_dump.py writes it) and on
a `--local lab` end to end.
"""

from __future__ import annotations

from typing import NamedTuple


class Example(NamedTuple):
    """A shell line holding at least one groupctl command, and the one line that says why."""

    command: str
    why: str


#: The README's cluster: a client properties file as kafka-consumer-groups.sh takes it.
_CLUSTER = "-b kafka-1:9093 --command-config client.properties"
_DUMP_LOG = "groupctl dump decode --format dump-log /var/lib/kafka/__consumer_offsets-12"
_TOPICS = "groupctl local topics create orders --partitions 6 --messages 1000 --local lab"
_JOIN = "groupctl local member join pod-0 --group orders-app --instance-id pod-0 --topics orders --local lab"
_TICK = "groupctl local tick 1m --local lab"
_DEMO = "groupctl demo"
_AUDIT = "groupctl dump audit /var/lib/kafka --fail-on warning"
_SPARK = "groupctl spark audit /var/lib/kafka --fail-on warning"
_REGEX = "groupctl regex validate '^topic*' 'orders' 'orders-.*' '(?!tmp).*'"
_COMPARE = "groupctl simulate rolling-bounce --compare --members 10 --partitions 30"
_UPGRADE = "groupctl simulate rolling-bounce --migrate upgrade --members 10 --partitions 30"
_DESCRIBE_MEMBERS = "groupctl group describe orders-app --members --verbose --local lab"
_REMOVE = ('groupctl group remove-members orders-app --instance-id pod-1,pod-2 --reason "scale 3 -> 1" --dry-run '
           "--local lab")
_CONFIG_GET = "groupctl group config get orders-app --local lab"
_CONFIG_SET = "groupctl group config set orders-app consumer.session.timeout.ms=55000 --dry-run --local lab"
_RESET = "groupctl group offsets reset billing --to-earliest --topic orders --dry-run --local lab"
_OFFSETS_DELETE = "groupctl group offsets delete orders-app --topic orders:0 --dry-run --local lab"

EXAMPLES: dict[str, tuple[Example, ...]] = {
    "": (
        Example(_DEMO, "A guided tour on a throwaway in-process coordinator"),
        Example("groupctl group list --local lab", "The groups of a local lab (or -b HOST:PORT for a cluster)"),
        Example("groupctl -o json dump groups sample-dump --state", "Any command's output as one JSON envelope"),
    ),
    "demo": (
        Example(_DEMO, "The tour in a temporary directory, removed at the end"),
        Example("groupctl demo --local lab", "Keep the lab, to run the tour's commands again from a shell"),
    ),
    "dump": (
        Example(_DUMP_LOG, "One partition, as kafka-dump-log.sh --offsets-decoder prints it"),
        Example("groupctl dump groups sample-dump --state", "Every group in a dump, rebuilt as a coordinator loads it"),
        Example(_AUDIT, "What went wrong in a broker's whole log dir; exit 4 at a warning"),
    ),
    "dump decode": (
        Example(_DUMP_LOG, "Exactly Kafka's output: diff it against kafka-dump-log.sh"),
        Example("groupctl dump decode --format dump-log --kafka-version 4.0 /var/lib/kafka/__consumer_offsets-12",
                "... as the kafka-dump-log.sh of Kafka 4.0 prints it"),
        Example("groupctl dump decode --format jsonl sample-dump | jq 'select(.key.type == 1) | .value.data.offset'",
                "One JSON object per record, for jq"),
        Example("groupctl dump decode sample-dump --group orders-app --record-type OFFSET_COMMIT,GROUP_METADATA "
                "--from-offset 4", "One group's offset commits and group metadata, from an offset on"),
    ),
    "dump groups": (
        Example("groupctl dump groups sample-dump --state", "State, group epoch, assignment epoch, converged?"),
        Example("groupctl dump groups sample-dump payments-app --members --verbose",
                "Members with current and target assignment and subscription"),
        Example("groupctl dump groups sample-dump billing-etl", "Committed offsets (the default view)"),
        Example("groupctl dump groups /var/lib/kafka/__consumer_offsets-7 --topic-ids topics.txt",
                "Topic names for KIP-848 topic ids, from kafka-topics.sh --describe output"),
    ),
    "dump audit": (
        Example(_AUDIT, "Every partition of a broker's log dir; exit 4 when a warning is found"),
        Example("groupctl dump audit sample-dump --fail-on none", "Findings and summaries, whatever they say"),
        Example("groupctl dump audit sample-dump -o json --fail-on none", "The same as one JSON document"),
    ),
    "dump locate": (
        Example("groupctl dump locate orders payments", "Which __consumer_offsets partition holds each group"),
        Example("groupctl dump locate orders-app --partitions 100",
                "... on a cluster whose offsets.topic.num.partitions is 100"),
    ),
    "spark": (
        Example(_SPARK, "dump audit on Spark, with every core of this machine"),
        Example("groupctl spark audit sample-dump --master 'local[2]' --fail-on none", "Two local cores"),
    ),
    "spark audit": (
        Example(_SPARK, "Every core of this machine (local[*] unless --master says otherwise)"),
        Example("groupctl spark audit 'hdfs://namenode/kafka-logs/__consumer_offsets-*' --master "
                "spark://spark-master:7077 --out hdfs://namenode/audits/2026-01-01",
                "A cluster, the records and findings kept as Parquet beside the log"),
        Example("groupctl spark audit sample-dump --master 'local[2]' --fail-on none -o json",
                "Two local cores, the report as JSON"),
    ),
    "regex": (
        Example(_REGEX, "The broker's verdict on each pattern, with lint warnings (exit 1: one is invalid)"),
        Example("kafka-topics.sh --bootstrap-server kafka-1:9092 --list | groupctl regex validate -t - 'orders-.*'",
                "Which topics a pattern subscribes to"),
    ),
    "regex validate": (
        Example(_REGEX, "The broker's verdict on each pattern, with lint warnings (exit 1: one is invalid)"),
        Example("kafka-topics.sh --bootstrap-server kafka-1:9092 --list | groupctl regex validate -t - 'orders-.*'",
                "Which topics a pattern subscribes to, from a topic list on standard input"),
        Example(f"groupctl regex validate --from-cluster {_CLUSTER} 'orders-.*'",
                "... from the cluster's own topics"),
        Example("groupctl regex validate --fail-on warning -o json -- '-dlq$' '.*-dlq'",
                "Exit 4 on a warning, for CI; -- before a pattern that starts with -"),
    ),
    "simulate": (
        Example(_COMPARE, "A rolling restart with each protocol and membership: rebalances, moves, unowned time"),
        Example(_UPGRADE, "A rolling restart that moves a classic group to the consumer protocol"),
    ),
    "simulate rolling-bounce": (
        Example(_COMPARE, "Classic and consumer protocol, static and dynamic members, side by side"),
        Example("groupctl simulate rolling-bounce --static --session-timeout 6000 --restart-time 10000",
                "Pods that take longer to restart than the session timeout"),
        Example(_UPGRADE, "KIP-848's online migration, one restart at a time"),
        Example("groupctl simulate rolling-bounce --migrate downgrade --dynamic -o wide",
                "Back from the consumer protocol to classic, with each member's final assignment"),
    ),
    "group": (
        Example(f"groupctl group list {_CLUSTER}", "Every group on a cluster"),
        Example(_DESCRIBE_MEMBERS, "A group's members with their assignments"),
        Example(_REMOVE, "The plan for removing two static members, without sending anything"),
    ),
    "group list": (
        Example(f"groupctl group list {_CLUSTER}", "Every group on a cluster, with kafka-consumer-groups.sh's "
                "client properties"),
        Example("groupctl group list --type consumer --state Stable,Reconciling --local lab",
                "Only KIP-848 groups in these states"),
        Example("groupctl group list -o wide --local lab",
                "... with protocol type, member count, and MIXED for a consumer group holding classic members"),
    ),
    "group describe": (
        Example("groupctl group describe orders-app --local lab", "Committed offsets and lag (the default view)"),
        Example(_DESCRIBE_MEMBERS, "One row per member, with assignments"),
        Example("groupctl group describe orders-app --state --local lab", "State, epochs, converged?"),
        Example(f"groupctl group describe --all --state --type consumer {_CLUSTER}", "Every KIP-848 group's state"),
    ),
    "group remove-members": (
        Example(_REMOVE, "The plan, without sending anything"),
        Example(f"groupctl group remove-members payments-app --from-file gone.txt --yes {_CLUSTER}",
                "Instance ids from a file, without asking"),
        Example("groupctl group remove-members orders-app --instance-id pod-2 --verify-after 0 --yes --local lab",
                "Remove one member and do not wait to see whether it rejoins"),
    ),
    "group config": (
        Example(_CONFIG_GET, "A group's dynamic configs and where each value comes from"),
        Example(_CONFIG_SET, "What a change would do, validated by the broker, without applying it"),
    ),
    "group config get": (
        Example(_CONFIG_GET, "Every dynamic config of a group"),
        Example(f"groupctl group config get payments-app consumer.session.timeout.ms -o wide {_CLUSTER}",
                "One config, with more columns"),
    ),
    "group config set": (
        Example(_CONFIG_SET, "Validate a change without applying it"),
        Example("groupctl group config set orders-app consumer.session.timeout.ms=55000 "
                "consumer.heartbeat.interval.ms=6000 --local lab", "Set two configs in one request"),
    ),
    "group config unset": (
        Example("groupctl group config unset orders-app consumer.session.timeout.ms --local lab",
                "Back to the broker's default"),
        Example(f"groupctl group config unset payments-app consumer.session.timeout.ms --dry-run {_CLUSTER}",
                "Validate it first"),
    ),
    "group offsets": (
        Example(_RESET, "The plan for rewinding a group to the start of a topic"),
        Example(_OFFSETS_DELETE, "The plan for deleting one partition's committed offset"),
    ),
    "group offsets reset": (
        Example(_RESET, "The plan for rewinding a group to the start of a topic"),
        Example(f"groupctl group offsets reset billing --to-datetime 2026-01-01T00:30:00Z --all-topics --yes "
                f"{_CLUSTER}", "Every topic of the group back to a point in time, without asking"),
        Example("groupctl group offsets reset billing audit --shift-by -10 --all-topics --dry-run --export "
                "--local lab > plan.csv", "A plan as CSV, to edit and apply with --from-file"),
        Example("groupctl group offsets reset --all-groups --to-latest --all-topics --dry-run --local lab",
                "Every consumer group without members to the log end, as Kafka's --all-groups"),
    ),
    "group offsets delete": (
        Example(_OFFSETS_DELETE, "The plan, without sending anything"),
        Example(f"groupctl group offsets delete billing --topic invoices --yes {_CLUSTER}",
                "Every committed offset of a topic the group no longer reads"),
    ),
    "group delete": (
        Example("groupctl group delete old-app billing --dry-run --local lab", "The plan, without sending anything"),
        Example(f"groupctl group delete old-app --yes {_CLUSTER}", "Delete an empty group without asking"),
    ),
    "local": (
        Example(_TOPICS, "A topic in a new lab directory"),
        Example(_JOIN, "A static classic consumer joins it"),
        Example(_TICK, "A minute of virtual time: heartbeats, timeouts, rebalances"),
    ),
    "local topics": (
        Example(_TOPICS, "A topic in a new lab directory"),
        Example("groupctl local topics list -o wide --local lab", "The lab's topics with their end offsets"),
    ),
    "local topics create": (
        Example(_TOPICS, "Six partitions, each with 1000 messages so lag shows"),
        Example("groupctl local topics create payments -p 3 --local lab", "An empty topic"),
    ),
    "local topics add-partitions": (
        Example("groupctl local topics add-partitions orders --partitions 12 --messages 1000 --local lab",
                "Grow to 12 partitions; the groups reading it rebalance"),
        Example("groupctl local topics add-partitions payments -p 6 --local lab", "New partitions, empty"),
    ),
    "local topics list": (
        Example("groupctl local topics list --local lab", "Names, topic ids and partition counts"),
        Example("groupctl local topics list -o wide --local lab", "... and every partition's end offset"),
    ),
    "local member": (
        Example(_JOIN, "A static classic consumer joins a group"),
        Example("groupctl local member bounce pod-0 --down 10s --local lab", "One step of a rolling restart"),
        Example("groupctl local member list --local lab", "Every simulated member"),
    ),
    "local member join": (
        Example(_JOIN, "A static classic member (a pod with group.instance.id)"),
        Example("groupctl local member join new-0 --group orders-app --protocol consumer --topics orders "
                "--local lab", "A KIP-848 member in the same group: an online migration"),
        Example("groupctl local member join etl-0 --group etl --protocol consumer --regex 'orders.*' --local lab",
                "Subscribe by pattern, resolved by the broker"),
    ),
    "local member heartbeat": (
        Example("groupctl local member heartbeat pod-0 --local lab", "One heartbeat now, and the answer"),
        Example("groupctl local member heartbeat pod-0 -o json --local lab", "The answer as JSON"),
    ),
    "local member leave": (
        Example("groupctl local member leave new-0 --local lab", "Close a member as KafkaConsumer.close() does"),
        Example("groupctl local member leave pod-0 --local lab",
                "A static classic member sends nothing: it stays until its session expires"),
    ),
    "local member crash": (
        Example("groupctl local member crash pod-0 --local lab", "Stop a member without a word"),
        Example("groupctl local member crash new-0 --local lab",
                "A KIP-848 member: fenced when its session expires, as `local tick` moves the clock"),
    ),
    "local member start": (
        Example("groupctl local member start pod-0 --local lab",
                "Start a stopped or crashed member again, with a new member id"),
        Example("groupctl local member start new-0 -o wide --local lab", "... with the client's state"),
    ),
    "local member bounce": (
        Example("groupctl local member bounce pod-0 --down 10s --local lab",
                "A restart within the session timeout: a static member takes its old place"),
        Example("groupctl local member bounce pod-0 --down 1m --local lab",
                "Down longer than the session timeout: the group rebalances"),
    ),
    "local member commit": (
        Example("groupctl local member commit pod-0 --local lab", "Commit the log end offsets: caught up"),
        Example("groupctl local member commit pod-0 --lag 100 --local lab", "100 messages behind on each partition"),
        Example("groupctl local member commit pod-0 --offset 500 --local lab", "Offset 500 on each partition"),
    ),
    "local member list": (
        Example("groupctl local member list --local lab", "Every simulated member and its assignment"),
        Example("groupctl local member list --group orders-app -o wide --local lab",
                "One group's, with the client's state and when it heartbeats next"),
    ),
    "local tick": (
        Example(_TICK, "A minute of virtual time, one row per change"),
        Example("groupctl local tick 1500ms -o wide --local lab", "... with the absolute virtual time"),
    ),
    "context": (
        Example("groupctl context list", "The named clusters of config.toml; * marks the current one"),
        Example("groupctl context use prod", "Every cluster command without -b or --command-config now talks to prod"),
        Example("groupctl context show lab", "What lab points at, secrets masked"),
    ),
    "context list": (
        Example("groupctl context list", "Each context's bootstrap servers, the current one marked *"),
        Example("groupctl context list -o json", "The same for a script"),
    ),
    "context show": (
        Example("groupctl context show", "The current context, secrets masked"),
        Example("groupctl context show prod -o yaml", "Where prod's password is read from, without reading it"),
    ),
    "context use": (
        Example("groupctl context use prod", "Make prod the current context (one line of config.toml rewritten)"),
        Example("groupctl context use lab", "Back to the lab cluster"),
    ),
    "local settings": (
        Example("groupctl local settings --local lab", "Every broker setting of the lab, and where it comes from"),
        Example("groupctl local settings group.consumer.migration.policy=upgrade --local lab",
                "Classic to consumer-protocol migration only"),
        Example("groupctl local settings --kafka-version 4.0 --local lab", "Write the records Kafka 4.0 writes"),
        Example("groupctl local settings --reset group.consumer.migration.policy --local lab", "Back to the default"),
    ),
    "serve": (
        Example("groupctl serve --local lab", "Kafka clients on 127.0.0.1:9092 talk to the lab's coordinator"),
        Example("groupctl serve --local lab --port 19092 --broker-config group.consumer.migration.policy=upgrade",
                "Another port, and a broker setting for this run"),
        Example("groupctl serve --local lab --tls-cert server.pem --tls-key server.key --sasl-users users.txt",
                "SASL_SSL: TLS and SCRAM or PLAIN logins"),
    ),
}


def examples(path: list[str] | tuple[str, ...]) -> tuple[Example, ...]:
    """The examples of the command at `path` (without the program name); none for an unknown one."""
    return EXAMPLES.get(" ".join(path), ())


def epilog(path: list[str] | tuple[str, ...]) -> str:
    """The examples as the end of `--help`: a heading, then each why as a shell comment over its line."""
    chosen = examples(path)
    if not chosen:
        return ""
    return "Examples:\n\n" + "\n\n".join(f"# {e.why}\n{e.command}" for e in chosen)
