"""Hosts on one machine: Linux network namespaces joined by a private bridge.

Each host is a namespace with its own loopback and one veth pair whose outer end sits on a
bridge in the root namespace; the addresses are a private /24 routed nowhere else. Processes
run on a host through ``ip netns exec``; cutting a host off the network is setting its outer
veth end down (its connections hang as they would behind a failed switch port: no reset).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass, field


def why_not_available() -> str | None:
    """Why namespaces cannot be made here (None when they can)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "network namespaces need root (ip netns add)"
    if shutil.which("ip") is None:
        return "the ip command (iproute2) is not installed"
    probe = f"nlgprobe{os.getpid() % 100000}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        return f"ip netns add failed: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


@dataclass
class Network:
    """A bridge and a namespace per host name; ``create`` makes them, ``remove`` undoes it."""

    hosts: list[str]
    tag: str = field(default_factory=lambda: f"n{os.getpid() % 100000}")
    subnet: str = field(default_factory=lambda: f"10.213.{os.getpid() % 250}")

    @property
    def bridge(self) -> str:
        return f"{self.tag}br"

    def namespace(self, host: str) -> str:
        return f"{self.tag}-{host}"

    def address(self, host: str) -> str:
        return f"{self.subnet}.{10 + self.hosts.index(host)}"

    def _outer(self, host: str) -> str:
        return f"{self.tag}o{self.hosts.index(host)}"  # interface names: 15 characters at most

    def create(self) -> None:
        self._ip("link", "add", self.bridge, "type", "bridge")
        self._ip("addr", "add", f"{self.subnet}.1/24", "dev", self.bridge)
        self._ip("link", "set", self.bridge, "up")
        for host in self.hosts:
            namespace, outer, inner = self.namespace(host), self._outer(host), "eth0"
            self._ip("netns", "add", namespace)
            self._ip("link", "add", outer, "type", "veth", "peer", "name", f"{outer}i")
            self._ip("link", "set", f"{outer}i", "netns", namespace)
            self._ip("-n", namespace, "link", "set", f"{outer}i", "name", inner)
            self._ip("-n", namespace, "addr", "add", f"{self.address(host)}/24", "dev", inner)
            self._ip("-n", namespace, "link", "set", inner, "up")
            self._ip("-n", namespace, "link", "set", "lo", "up")
            self._ip("link", "set", outer, "master", self.bridge)
            self._ip("link", "set", outer, "up")

    def on(self, host: str) -> list[str]:
        """The command prefix that runs a program on ``host``."""
        return ["ip", "netns", "exec", self.namespace(host)]

    def cut(self, host: str) -> None:
        self._ip("link", "set", self._outer(host), "down")

    def mend(self, host: str) -> None:
        self._ip("link", "set", self._outer(host), "up")

    def remove(self) -> None:
        for host in self.hosts:
            subprocess.run(["ip", "netns", "del", self.namespace(host)], capture_output=True)
            subprocess.run(["ip", "link", "del", self._outer(host)], capture_output=True)
        subprocess.run(["ip", "link", "del", self.bridge], capture_output=True)

    @staticmethod
    def _ip(*args: str) -> None:
        done = subprocess.run(["ip", *args], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")
