"""The in-process group coordinator: one `__consumer_offsets` partition's worth of groups.

How state changes (the rule the code keeps):

- Offsets and KIP-848 consumer groups change only by replay. A handler reads the replayed
  `CoordinatorState` (the very fold `groupctl dump` uses, plus indexes), builds records and returns
  them; they are written to the log as real v2 batches, decoded back from those bytes and applied.
  A coordinator rebuilt from the log (failover) therefore holds equal state.
- Classic groups keep a live object for the rebalance in flight (members awaiting join or sync,
  pending members, the state machine), as Kafka's do (`replayRecords=false`): the handlers change
  it directly, and write GroupMetadataValue snapshots where Kafka writes them (group created,
  rebalance completed by the leader's SyncGroup, group emptied, a static member replaced while
  Stable). A rebuilt coordinator loads each classic group from its last snapshot: Stable with its
  members, or Empty. A request the handler rejects leaves the live map as it was.
- Handlers return a `runtime.Result` (answer, records, parked requests completed); they never
  append. The router (`coordinator.Coordinator`) validates, calls the handler and has the runtime
  complete the result: append its records once, then answer the parked requests, then run the
  deferred tasks (regex resolution), each of which is completed the same way. A timer firing is
  completed the same way too. The router owns what crosses protocols: a new classic group's first
  record, dropping an Empty group of one protocol the other replaces, DeleteGroups' tombstones,
  which protocol a request goes to, and online migration (`migration`): a classic group converted
  by its first consumer-protocol member (the classic tombstone and the consumer group's records in the
  same batch as the joining heartbeat's, which runs against the converted group held aside, so a
  refused heartbeat leaves the classic group as it was), classic members served inside a consumer
  group (`consumer/classic_requests`, through the heartbeat's own steps), and the conversion back,
  which, as in Kafka, replaces the records of the members' removal and creates the live classic
  group directly.

Layout: `runtime` (clock, timers and their named keys, ids, topics, configs, state, log, tasks, the
migration policy), `coordinator` (the router), `classic/` and `consumer/` (the protocols),
`migration` (the conversions between them), `offsets`, `assignors/`,
`state` (replay plus indexes), `log` (where records go), `clock`, `ids`, `topics`, `configs`,
`views` (read-only copies of a group for watchers), `soft_state` (what is not in the log, as JSON values).

Code outside this package asks the `Coordinator` (its requests, `classic_group` / `consumer_group`,
`next_timer_deadline`, `snapshot` / `restore` ...) and never reads `runtime` or the protocol halves;
tests may, through `coordinator.runtime` (tests/coordinator/test_sealed.py holds the line).

What is not in the log lives beside it. A broker keeps it in memory; the local backend
(`groupctl.backends.local`) keeps it in DIR's sidecar files, written atomically at the end of
every invocation, from the coordinator's `snapshot()` and handed back to `restore()`:

- `__consumer_offsets-0/`: the log itself, one segment in Kafka's format;
- `topics.json`: topic names, ids, partition counts and log end offsets;
- `group-configs.json`: per-group config overrides; `clock.json`: the virtual clock;
- `timers.json`: live timers by key (`runtime.TIMER_KINDS`: session, heartbeat, rebalance, join,
  sync, member-join, member-sync) and deadline, so sessions still expire and rebalances still time
  out between invocations;
- `classic-groups.json`: classic groups' soft state (`soft_state`; its shape checked by
  `backends.local_classic`), with the log end offset it was taken at; used only while the log still ends there;
- `broker-settings.json`: the coordinator's broker settings (`backends.local_settings`: the migration
  policy, group sizes, classic timeouts, and the Kafka release whose records the log gets);
- `members.json`: the simulated members of `groupctl local member`; `serving.json` and `.lock`:
  who holds DIR; `data/`, `cluster.json`, `topic-configs.json`: what `groupctl serve` keeps.
"""
