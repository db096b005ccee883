"""`groupctl regex validate`: verdicts, warnings, the topic preview, output formats and exit codes."""

from __future__ import annotations

import io
import json

import pytest
import yaml


@pytest.fixture
def topics_file(tmp_path):
    path = tmp_path / "topics.txt"
    path.write_text(
        "# kafka-topics.sh --list\n"
        "orders\n"
        "orders-eu\n"
        "orders-us\n"
        "\n"
        "payments\n"
        "topic-1\n"
        "__consumer_offsets\n"
        "__transaction_state\n"
    )
    return path


def test_table_with_verdicts_and_warning_details(cli):
    r = cli("regex", "validate", "orders-.*", "^topic*")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0].split() == ["PATTERN", "VALID", "ERROR", "WARNINGS"]
    assert lines[1].split() == ["orders-.*", "yes", "-", "-"]
    assert lines[2].split() == ["^topic*", "yes", "-", "glob-star"]
    assert any(line.startswith("^topic*: glob-star: ") and "write `^topic.*`" in line for line in lines)
    assert r.err == ""


def test_invalid_pattern_exits_1_and_shows_the_broker_message(cli):
    r = cli("regex", "validate", "orders-.*", "(?<=eu-)orders")
    assert r.code == 1
    assert "(?<=eu-)orders  no     invalid named capture" in r.out
    assert (
        "(?<=eu-)orders: error: SubscribedTopicRegex `(?<=eu-)orders` is not a valid regular expression: "
        "invalid named capture." in r.out
    )
    assert "1 of 2 patterns would be rejected by the broker" in r.err
    assert "Traceback" not in r.err


def test_json_envelope_one_item_per_pattern(cli):
    r = cli("regex", "validate", "^orders", "a(", "-o", "json")
    assert r.code == 1
    doc = json.loads(r.out)
    assert doc["apiVersion"] == "groupctl/v1"
    assert doc["kind"] == "RegexValidation"
    first, second = doc["items"]
    assert first["pattern"] == "^orders"
    assert first["valid"] is True
    assert first["error"] is None
    assert first["brokerMessage"] is None
    assert [w["code"] for w in first["warnings"]] == ["prefix-without-wildcard"]
    assert set(first["warnings"][0]) == {"code", "message"}
    assert "matches" not in first
    assert second == {
        "pattern": "a(",
        "valid": False,
        "error": "missing closing )",
        "brokerMessage": "SubscribedTopicRegex `a(` is not a valid regular expression: missing closing ).",
        "warnings": [],
    }


def test_a_plain_topic_name_warns_only_when_listed_topics_extend_it(cli, topics_file):
    r = cli("regex", "validate", "orders", "payments", "-o", "json")
    assert r.code == 0, r.err
    assert [i["warnings"] for i in json.loads(r.out)["items"]] == [[], []]  # no topic list: two topic names
    r = cli("regex", "validate", "--topics-file", str(topics_file), "--fail-on", "warning", "orders", "payments")
    assert r.code == 4
    lines = r.out.splitlines()
    assert lines[1].split() == ["orders", "yes", "-", "prefix-without-wildcard", "1"]
    assert lines[2].split() == ["payments", "yes", "-", "-", "1"]
    assert any(line.startswith("orders: prefix-without-wildcard: ") and "not 'orders-eu'" in line for line in lines)
    assert "lint warnings for 1 of 2 patterns" in r.err


def test_yaml_and_csv(cli):
    r = cli("regex", "validate", "^topic*", "-o", "yaml")
    assert r.code == 0
    assert yaml.safe_load(r.out)["items"][0]["warnings"][0]["code"] == "glob-star"
    r = cli("regex", "validate", "^topic*", "orders-.*", "-o", "csv")
    assert r.code == 0
    assert r.out.splitlines() == ["pattern,valid,error,warnings", "^topic*,true,,glob-star", "orders-.*,true,,"]


def test_fail_on_warning_exits_4(cli):
    r = cli("regex", "validate", "--fail-on", "warning", "^topic*", "orders-.*")
    assert r.code == 4
    assert "lint warnings for 1 of 2 patterns" in r.err


def test_warnings_alone_exit_0_by_default(cli):
    assert cli("regex", "validate", "^topic*").code == 0
    assert cli("regex", "validate", "--fail-on", "none", "^topic*").code == 0


def test_fail_on_warning_with_clean_patterns_exits_0(cli):
    assert cli("regex", "validate", "--fail-on", "warning", "orders-.*", ".*-events").code == 0


def test_invalid_wins_over_warnings(cli):
    r = cli("regex", "validate", "--fail-on", "warning", "^topic*", "a*+")
    assert r.code == 1


def test_double_dash_before_patterns_that_start_with_a_dash(cli):
    r = cli("regex", "validate", "-o", "json", "--", "-dlq", ".*-dlq")
    assert r.code == 0, r.err
    assert [i["pattern"] for i in json.loads(r.out)["items"]] == ["-dlq", ".*-dlq"]


def test_pattern_starting_with_a_dash_needs_the_double_dash(cli):
    r = cli("regex", "validate", "-dlq")
    assert r.code == 2
    assert "No such option" in r.err


def test_topics_file_preview_includes_internal_topics_as_the_broker_does(cli, topics_file):
    """The broker resolves SubscribedTopicRegex over every topic: `.*` gets its consumers assigned
    __consumer_offsets, so the preview shows it and the lint warns."""
    r = cli("regex", "validate", "-t", str(topics_file), "orders-.*", ".*", "-o", "json")
    assert r.code == 0, r.err
    orders, everything = json.loads(r.out)["items"]
    assert orders["matches"] == ["orders-eu", "orders-us"] and orders["warnings"] == []
    assert everything["matches"] == ["__consumer_offsets", "__transaction_state", "orders", "orders-eu", "orders-us",
                                     "payments", "topic-1"]
    assert [w["code"] for w in everything["warnings"]] == ["matches-internal-topic"]
    assert "__consumer_offsets, __transaction_state" in everything["warnings"][0]["message"]
    r = cli("regex", "validate", "-t", str(topics_file), ".*", "--fail-on", "warning")
    assert r.code == 4


def test_exclude_internal_leaves_them_out_of_the_preview(cli, topics_file):
    r = cli("regex", "validate", "--topics-file", str(topics_file), "--exclude-internal", "__.*", ".*", "-o", "json")
    assert r.code == 0, r.err
    internal, everything = json.loads(r.out)["items"]
    assert internal["matches"] == [] and internal["warnings"] == []
    assert everything["matches"] == ["orders", "orders-eu", "orders-us", "payments", "topic-1"]
    r = cli("regex", "validate", "--topics-file", str(topics_file), "--include-internal", "__.*", "-o", "json")
    assert json.loads(r.out)["items"][0]["matches"] == ["__consumer_offsets", "__transaction_state"]


def test_without_a_preview_the_lint_checks_kafkas_own_topics(cli):
    r = cli("regex", "validate", ".*", "__consumer_.*", "orders.*", "-o", "json")
    assert r.code == 0, r.err
    codes = [[w["code"] for w in item["warnings"]] for item in json.loads(r.out)["items"]]
    assert codes == [["matches-internal-topic"], ["matches-internal-topic"], []]


def test_preview_table_counts_and_wide_names(cli, topics_file):
    r = cli("regex", "validate", "-t", str(topics_file), "orders-.*", "^topic*", "a(")
    assert r.code == 1
    lines = r.out.splitlines()
    assert lines[0].split() == ["PATTERN", "VALID", "ERROR", "WARNINGS", "MATCHES"]
    assert lines[1].split() == ["orders-.*", "yes", "-", "-", "2"]
    assert lines[2].split() == ["^topic*", "yes", "-", "glob-star", "0"]
    assert lines[3].split()[-1] == "-"
    r = cli("regex", "validate", "-t", str(topics_file), "orders-.*", "-o", "wide")
    assert r.out.splitlines()[1].split() == ["orders-.*", "yes", "-", "-", "2", "orders-eu,orders-us"]


def test_invalid_pattern_matches_nothing_in_json(cli, topics_file):
    r = cli("regex", "validate", "-t", str(topics_file), "(?=orders).*", "-o", "json")
    assert json.loads(r.out)["items"][0]["matches"] == []


def test_topics_from_standard_input(cli, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("orders-eu\npayments\n"))
    r = cli("regex", "validate", "-t", "-", "orders-.*", "-o", "json")
    assert r.code == 0, r.err
    assert json.loads(r.out)["items"][0]["matches"] == ["orders-eu"]


def test_missing_topics_file_is_a_usage_error(cli, tmp_path):
    r = cli("regex", "validate", "-t", str(tmp_path / "nope.txt"), "orders-.*")
    assert r.code == 2
    assert f"topics file '{tmp_path / 'nope.txt'}' does not exist" in r.err
    assert "Traceback" not in r.err
    assert r.out == ""


def test_exclude_internal_needs_a_topic_source(cli, topics_file):
    r = cli("regex", "validate", "--exclude-internal", "orders-.*")
    assert r.code == 2
    assert "--topics-file" in r.err
    r = cli("regex", "validate", "-t", str(topics_file), "--exclude-internal", "--include-internal", "orders-.*")
    assert r.code == 2 and "not both" in r.err


def test_kafka_tool_wording(cli):
    r = cli("regex", "validate", "--kafka-tool", "orders-.*", "a(", "(?!tmp).*")
    assert r.code == 1
    assert r.out.splitlines() == [
        "The regular expression `orders-.*` is valid.",
        "The regular expression `a(` is invalid: missing closing ).",
        "The regular expression `(?!tmp).*` is invalid: invalid or unsupported Perl syntax.",
    ]


def test_kafka_tool_with_valid_patterns_exits_0(cli):
    r = cli("regex", "validate", "--kafka-tool", "^topic*")
    assert r.code == 0
    assert r.out == "The regular expression `^topic*` is valid.\n"


def test_kafka_tool_refuses_other_layouts_and_the_preview(cli, topics_file):
    assert cli("regex", "validate", "--kafka-tool", "-o", "json", "x").code == 2
    assert cli("regex", "validate", "--kafka-tool", "-t", str(topics_file), "x").code == 2


def test_no_pattern_is_a_usage_error(cli):
    r = cli("regex", "validate")
    assert r.code == 2
    assert "Missing argument" in r.err


def test_help_has_examples(cli):
    r = cli("regex", "validate", "--help")
    assert r.code == 0
    assert "Examples:" in r.out and "groupctl regex validate '^topic*'" in r.out
    assert "--kafka-tool" in r.out


def test_from_cluster_previews_the_selected_clusters_topics(cli, tmp_path):
    from groupctl.backends.local import LocalBackend

    with LocalBackend(tmp_path, create=True) as backend:
        for name in ("orders", "orders-eu", "payments", "__consumer_offsets"):
            backend.coordinator.create_topic(name, 1)
    r = cli("regex", "validate", "--from-cluster", "--local", str(tmp_path), "-o", "json", "orders.*", "__.*")
    assert r.code == 0, r.err
    items = json.loads(r.out)["items"]
    assert [i["matches"] for i in items] == [["orders", "orders-eu"], ["__consumer_offsets"]]
    r = cli("regex", "validate", "--from-cluster", "--exclude-internal", "--local", str(tmp_path), "-o", "json",
            "__.*")
    assert json.loads(r.out)["items"][0]["matches"] == []


@pytest.mark.parametrize("kind", ["serve", "serve-tls", "serve-sasl-scram"])
def test_from_cluster_previews_a_kafka_clusters_topics(cli, serve, tmp_path, kind):
    served = serve(tmp_path / "lab", kind)
    for name in ("orders", "orders-eu", "payments"):
        served.server.call(lambda broker, name=name: broker.backend.create_topic(name, 1))
    r = cli("regex", "validate", "--from-cluster", *served.args, "-o", "json", "orders.*", "pay.*", "nothing.*")
    assert r.code == 0, r.err
    assert [i["matches"] for i in json.loads(r.out)["items"]] == [["orders", "orders-eu"], ["payments"], []]


def test_from_cluster_needs_a_cluster_and_only_one_topic_source(cli, tmp_path, monkeypatch):
    for variable in ("GROUPCTL_LOCAL", "GROUPCTL_BOOTSTRAP_SERVER", "GROUPCTL_COMMAND_CONFIG"):
        monkeypatch.delenv(variable, raising=False)
    r = cli("regex", "validate", "--from-cluster", "x")
    assert r.code == 2 and "--local DIR" in r.err and "--bootstrap-server HOST:PORT" in r.err
    topics = tmp_path / "topics.txt"
    topics.write_text("a\n")
    r = cli("regex", "validate", "--from-cluster", "--topics-file", str(topics), "--local", str(tmp_path), "x")
    assert r.code == 2 and "one topic source" in r.err
    assert cli("regex", "validate", "--from-cluster", "--local", str(tmp_path / "none"), "x").code == 1
