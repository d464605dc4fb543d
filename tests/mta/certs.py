"""A throwaway certificate authority and a server certificate for 127.0.0.1 and localhost,
made with the openssl program for each test run (nothing is kept or shared)."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Certificates:
    ca: Path  # the CA's certificate: what a client trusts
    cert: Path  # the server's certificate, signed by the CA
    key: Path  # the server's key
    stranger_ca: Path  # another CA's certificate: trusting it must not do


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def _authority(folder: Path, name: str) -> None:
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
             "-keyout", f"{name}.key", "-out", f"{name}.pem", "-subj", f"/CN=pbm test {name}",
             "-addext", "basicConstraints=critical,CA:TRUE",
             "-addext", "keyUsage=critical,keyCertSign,cRLSign", cwd=folder)


def make(folder: Path) -> Certificates:
    folder.mkdir(parents=True, exist_ok=True)
    _authority(folder, "ca")
    _authority(folder, "stranger")
    _openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key",
             "-out", "server.csr", "-subj", "/CN=localhost", cwd=folder)
    (folder / "san.ext").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n"
                                    "extendedKeyUsage=serverAuth\n")
    _openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
             "-CAcreateserial", "-days", "2", "-out", "server.pem", "-extfile", "san.ext",
             cwd=folder)
    return Certificates(folder / "ca.pem", folder / "server.pem", folder / "server.key",
                        folder / "stranger.pem")
