"""List settings (server.operators): a TOML array of strings, or words in the environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbm.config import ConfigError, load


def test_operators_default_to_nobody():
    assert load(env={}).server.operators == ()


def test_operators_from_a_toml_array_are_userids_in_lower_case(tmp_path: Path):
    file = tmp_path / "pbm.toml"
    file.write_text('[server]\noperators = ["Alice", "bob"]\n', encoding="utf-8")
    assert load(file, env={}).server.operators == ("alice", "bob")


def test_operators_from_the_environment_are_split_at_commas_and_spaces():
    config = load(env={"PBM_SERVER_OPERATORS": "alice, bob carol"})
    assert config.server.operators == ("alice", "bob", "carol")


def test_a_string_in_the_file_is_read_as_the_environment_is(tmp_path: Path):
    file = tmp_path / "pbm.toml"
    file.write_text('[server]\noperators = "alice,bob"\n', encoding="utf-8")
    assert load(file, env={}).server.operators == ("alice", "bob")


@pytest.mark.parametrize("value", ["[1, 2]", '["alice", 3]', "true", "7", "{ a = 1 }"])
def test_anything_but_a_list_of_strings_is_refused_naming_the_key(tmp_path: Path, value: str):
    file = tmp_path / "pbm.toml"
    file.write_text(f"[server]\noperators = {value}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load(file, env={})
    message = str(caught.value)
    assert str(file) in message and "server.operators" in message
    assert "must be a list of strings" in message and "\n" not in message
