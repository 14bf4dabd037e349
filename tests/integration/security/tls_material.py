"""A throwaway certificate authority and broker/client certificates, made with the openssl CLI.

Kept out of ``conftest.py`` under a unique module name so test modules can import it.
Everything lives in the directory given; nothing is trusted outside the tests.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class TlsMaterial:
    """Paths of the generated files; ``keystore`` is the broker's PKCS#12 (key + chain)."""

    ca_cert: Path
    keystore: Path
    keystore_password: str
    client_cert: Path
    client_key: Path


def _openssl(*args: str, cwd: Path) -> None:
    done = subprocess.run(["openssl", *args], cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"openssl {args[0]} failed: {done.stderr}")


def _signed(name: str, cn: str, ext: str, out: Path) -> None:
    """``<name>.key`` and ``<name>.pem`` signed by ``ca.key`` with the extensions ``ext``."""
    _openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}.key", "-subj", f"/CN={cn}",
             "-out", f"{name}.csr", cwd=out)
    (out / f"{name}.ext").write_text(ext, encoding="utf-8")
    _openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
             "-days", "2", "-sha256", "-extfile", f"{name}.ext", "-out", f"{name}.pem", cwd=out)


def make_tls_material(out: Path, keystore_password: str = "keystore-pass") -> TlsMaterial:
    """A CA, a broker certificate for 127.0.0.1/localhost in a PKCS#12 keystore, a client certificate."""
    if shutil.which("openssl") is None:
        raise RuntimeError("openssl is needed to generate test certificates (apt-get install openssl)")
    out.mkdir(parents=True, exist_ok=True)
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
             "-days", "2", "-subj", "/CN=faultline test CA", "-addext", "basicConstraints=critical,CA:TRUE",
             "-addext", "keyUsage=critical,keyCertSign,cRLSign", cwd=out)
    _signed("broker", "127.0.0.1", "subjectAltName=IP:127.0.0.1,DNS:localhost\n"
            "extendedKeyUsage=serverAuth\n", out)
    _signed("client", "faultline", "extendedKeyUsage=clientAuth\n", out)
    _openssl("pkcs12", "-export", "-in", "broker.pem", "-inkey", "broker.key", "-certfile", "ca.pem",
             "-name", "broker", "-out", "broker.p12", "-passout", f"pass:{keystore_password}", cwd=out)
    return TlsMaterial(ca_cert=out / "ca.pem", keystore=out / "broker.p12", keystore_password=keystore_password,
                       client_cert=out / "client.pem", client_key=out / "client.key")
