"""A real Slurm cluster on loopback, for tests: one node, or several on one host.

`SlurmCluster(workdir)` starts munged, slurmctld and slurmd as root with
everything (key, config, state, spool, logs, munge socket) under `workdir`
and free TCP ports of its own, so several clusters (other test sessions on
the same machine) do not collide and no system-wide service is touched.
Clients find it through `cluster.env` (SLURM_CONF). `stop()` cancels the
cluster's jobs, then ends exactly the processes it started.

`SlurmCluster(workdir, nodes=2)` runs two nodes, n1 and n2, on this one host:
one `slurmd -N n1` / `slurmd -N n2` each, with its own Port, spool directory,
log and pid file, so `srun -N2 hostname`-style jobs get two Slurm nodes (each
claims the whole host's CPUs and memory). A node can be made to differ from
the others with `set_task_prolog(node, script)`: that executable runs as the
TaskProlog of every task on that node, and its `export NAME=value` lines
reach the task's environment (Slurm's TaskProlog protocol).

    with SlurmCluster(tmp_path / "slurm") as cluster:
        subprocess.run(["sbatch", ...], env={**os.environ, **cluster.env})

The session fixture `slurm_cluster` (import it into tests/conftest.py) starts
one cluster for the whole test session, puts `cluster.env` into os.environ
(submitit calls sbatch/sacct/scancel with the inherited environment), and
skips with a reason when no cluster can be started here (not root, Slurm not
installed: see .ci/install-slurm). The session fixture `slurm_cluster2`
starts a two-node cluster the first time a test asks for it and leaves
os.environ alone (the one-node cluster's env stays there): pass
`cluster.env` to what should talk to it.

Accounting (slurmdbd and a database) is off here, and then the real `sacct`
fails: submitit only logs "Bypassing sacct error", a crashed job stays
UNKNOWN and `done()` never becomes true (seen here with submitit 1.5.4). So by
default `workdir/bin/sacct` is a stand-in that answers submitit's one query
from `squeue -t all`; any other query goes to the real sacct.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

DAEMONS = ("munged", "mungekey", "slurmctld", "slurmd", "slurmstepd")
CLIENTS = ("sbatch", "srun", "squeue", "sinfo", "scancel", "scontrol")
START_TIMEOUT_S = 60.0
# Unix socket paths are limited to 108 bytes (sun_path); keep a margin.
MAX_SOCKET_PATH = 100
SHIM_MARK = "written by tests/slurm_cluster.py"


class SlurmClusterError(RuntimeError):
    """The cluster did not come up; the message holds the daemons' log tails."""


def unavailable_reason() -> str | None:
    """Why a cluster cannot be started on this machine, or None when it can."""
    if os.name != "posix":
        return "Slurm test cluster needs Linux"
    if os.geteuid() != 0:
        return "Slurm test cluster needs root (munged/slurmd run as root here)"
    missing = [name for name in DAEMONS + CLIENTS if _which(name) is None]
    if missing:
        return f"Slurm/munge not installed (missing: {', '.join(missing)}); run .ci/install-slurm as root"
    return None


def _which(name: str) -> str | None:
    # The daemons live in /usr/sbin, which a non-login PATH may lack.
    path = os.environ.get("PATH", "") + ":/usr/sbin:/sbin:/usr/lib/slurm"
    return shutil.which(name, path=path)


def _is_shim_dir(directory: str) -> bool:
    try:
        return SHIM_MARK in (Path(directory) / "sacct").read_text(errors="replace")[:200]
    except OSError:
        return False


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _die_with_parent() -> None:
    """In the child before exec: SIGTERM it when the test process dies, so a
    killed pytest (SIGKILL, a CI timeout) leaves no daemons behind."""
    try:
        import ctypes

        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except Exception:
        pass


def _tail(path: Path, lines: int = 25) -> str:
    try:
        text = path.read_text(errors="replace").splitlines()
    except OSError as e:
        return f"(cannot read {path}: {e})"
    return "\n".join(text[-lines:])


class SlurmCluster:
    """Slurm cluster (munged + slurmctld + one slurmd per node) on 127.0.0.1.

    Attributes after start(): `workdir`, `conf` (slurm.conf path), `env`
    (what clients need: SLURM_CONF, and PATH with /usr/sbin and, when
    `sacct_shim` (the default), the sacct shim first: see
    _write_sacct_shim), `nodenames` (the host's short name for one node;
    n1, n2, ... for several), `nodename` (the first), `partition`
    ("debug"), `munge_socket`, `logs`, `pids` ({"munged": pid,
    "slurmctld": pid, "slurmd": pid}; with several nodes "slurmd-n1",
    "slurmd-n2", ... instead of "slurmd"), `start_seconds`.
    Raises SlurmClusterError (with the daemons' log tails) when a daemon
    dies or a node is not idle within `timeout_s`.
    """

    partition = "debug"

    def __init__(
        self,
        workdir: str | os.PathLike[str],
        *,
        sacct_shim: bool = True,
        nodes: int = 1,
        task_prologs: dict[str, str | os.PathLike[str]] | None = None,
    ) -> None:
        if nodes < 1:
            raise ValueError(f"nodes must be at least 1, not {nodes}")
        self.workdir = Path(workdir).resolve()
        self.sacct_shim = sacct_shim
        self.host = socket.gethostname().split(".")[0]
        self.nodenames = (self.host,) if nodes == 1 else tuple(f"n{i}" for i in range(1, nodes + 1))
        self.nodename = self.nodenames[0]
        # One node keeps the daemon's plain name (pids, logs) as before.
        self._slurmd = {n: "slurmd" if nodes == 1 else f"slurmd-{n}" for n in self.nodenames}
        self._initial_task_prologs = dict(task_prologs or {})
        self.task_prolog_dir = self.workdir / "task-prolog.d"
        self.conf = self.workdir / "slurm.conf"
        self.env: dict[str, str] = {}
        self.pids: dict[str, int] = {}
        self.start_seconds: float | None = None
        self._procs: dict[str, subprocess.Popen[bytes]] = {}
        self._short_dir: Path | None = None
        self.munge_socket = self.workdir / "munge" / "munge.socket"
        self.spool_dir = self.workdir / "spool"
        self.logs = {
            # munged --foreground logs to stderr, which _start() captures.
            "munged": self.workdir / "log" / "munged.stdout",
            "slurmctld": self.workdir / "log" / "slurmctld.log",
            **{name: self.workdir / "log" / f"{name}.log" for name in self._slurmd.values()},
        }

    # context manager -------------------------------------------------------

    def __enter__(self) -> SlurmCluster:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # public ----------------------------------------------------------------

    def start(self, timeout_s: float = START_TIMEOUT_S) -> SlurmCluster:
        reason = unavailable_reason()
        if reason:
            raise SlurmClusterError(reason)
        t0 = time.monotonic()
        try:
            self._prepare_dirs()
            self._start_munge()
            self._write_conf()
            self._start("slurmctld", [_which("slurmctld"), "-D", "-f", str(self.conf)])
            self._wait_for_controller(t0 + timeout_s)
            for node, name in self._slurmd.items():
                self._start(name, [_which("slurmd"), "-D", "-f", str(self.conf), "-N", node])
            self._wait_nodes_idle(t0 + timeout_s)
        except BaseException:
            self.stop()
            raise
        self.start_seconds = time.monotonic() - t0
        return self

    def run(self, *args: str, check: bool = True, timeout: float = 30) -> subprocess.CompletedProcess[str]:
        """Run a Slurm client (`cluster.run("squeue", "-h")`) against this cluster."""
        return subprocess.run(
            list(args),
            env={**os.environ, **self.env},
            capture_output=True,
            text=True,
            check=check,
            timeout=timeout,
        )

    def node_state(self, node: str | None = None) -> str:
        """A node's state (the first node's by default) as sinfo prints it (idle, alloc, down*, drain, ...)."""
        out = self.run("sinfo", "-h", "-N", "-n", node or self.nodename, "-o", "%t", check=False)
        return out.stdout.strip() if out.returncode == 0 else f"sinfo failed: {out.stderr.strip()}"

    def set_task_prolog(self, node: str, script: str | os.PathLike[str] | None) -> None:
        """From the next task on, run `script` (an executable) as the TaskProlog of
        every task on `node`; None: no longer. Its `export NAME=value` lines set
        the task's environment; `print ...` lines go to the task's stdout."""
        if node not in self.nodenames:
            raise ValueError(f"{node!r} is not a node of this cluster ({', '.join(self.nodenames)})")
        link = self.task_prolog_dir / node
        link.unlink(missing_ok=True)
        if script is not None:
            link.symlink_to(Path(script).resolve())

    def job_info(self, job_id: str) -> dict[str, str]:
        """`scontrol -o show job` as a dict (JobState, ExitCode, Restarts, ...),
        from slurmctld's memory, which keeps ended jobs MinJobAge (300) seconds;
        works without accounting, unlike sacct. {} when unknown. For an array
        task pass "<array>_<task>". Values with spaces are cut at the space."""
        out = self.run("scontrol", "-o", "show", "job", str(job_id), check=False)
        line = out.stdout.splitlines()[0] if out.returncode == 0 and out.stdout else ""
        return dict(f.split("=", 1) for f in line.split() if "=" in f)

    def job_state(self, job_id: str) -> str | None:
        """The job's JobState (PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, ...) or None."""
        return self.job_info(job_id).get("JobState")

    def log_tails(self, lines: int = 25) -> str:
        parts = []
        for name, path in self.logs.items():
            parts.append(f"--- {name}: {path} (last {lines} lines)\n{_tail(path, lines)}")
        return "\n".join(parts)

    def stop(self, timeout_s: float = 15.0) -> None:
        """Cancel this cluster's jobs, then end exactly the daemons started here."""
        if "slurmctld" in self._procs and self._procs["slurmctld"].poll() is None:
            self._cancel_all_jobs(deadline=time.monotonic() + min(timeout_s, 10.0))
        for name in (*self._slurmd.values(), "slurmctld", "munged"):
            proc = self._procs.pop(name, None)
            if proc is None:
                continue
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=timeout_s)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=5)
            self.pids.pop(name, None)
        if self._short_dir is not None:
            shutil.rmtree(self._short_dir, ignore_errors=True)
            self._short_dir = None

    # internals -------------------------------------------------------------

    def _prepare_dirs(self) -> None:
        self.munge_socket = self.workdir / "munge" / "munge.socket"
        self.spool_dir = self.workdir / "spool"
        # A reused workdir must not resurrect the last run's jobs and node state.
        for sub in ("state", "spool"):
            shutil.rmtree(self.workdir / sub, ignore_errors=True)
        shutil.rmtree(self.task_prolog_dir, ignore_errors=True)
        for sub in ("state", "spool", "log", "munge", "tmp", self.task_prolog_dir.name):
            (self.workdir / sub).mkdir(parents=True, exist_ok=True)
        for node, script in self._initial_task_prologs.items():
            self.set_task_prolog(node, script)
        # Unix sockets live in the munge dir and in SlurmdSpoolDir
        # (<spool>[/slurmd-<node>]/<node>_<job>.<step>, e.g.
        # vm_4294967292.4294967292); with a long workdir they would pass
        # sun_path's limit, and then jobs hang in slurmstepd rather than fail.
        # Such sockets go to a short /tmp dir.
        longest = len(str(self.spool_dir)) + 2 * max(map(len, self.nodenames)) + 32
        if max(longest, len(str(self.munge_socket))) > MAX_SOCKET_PATH:
            self._short_dir = Path(tempfile.mkdtemp(prefix="cm-slurm-"))
            self.munge_socket = self._short_dir / "munge.socket"
            self.spool_dir = self._short_dir / "spool"
            self.spool_dir.mkdir()
        # munged wants its socket directory searchable by all; the key 0600.
        os.chmod(self.munge_socket.parent, 0o755)

    def _start(self, name: str, argv: list[str | None]) -> None:
        out = open(self.workdir / "log" / f"{name}.stdout", "ab")
        try:
            proc = subprocess.Popen(
                [str(a) for a in argv],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                env={**os.environ, **self.env},
                cwd=self.workdir,
                # Own session: a Ctrl-C in the terminal reaches pytest, which
                # then stops the daemons in order.
                start_new_session=True,
                preexec_fn=_die_with_parent,
            )
        finally:
            out.close()
        self._procs[name] = proc
        self.pids[name] = proc.pid

    def _start_munge(self) -> None:
        key = self.workdir / "munge" / "munge.key"
        if not key.exists():
            subprocess.run([_which("mungekey"), "--create", f"--keyfile={key}"], check=True, capture_output=True)
        os.chmod(key, 0o600)
        self._start(
            "munged",
            [
                _which("munged"),
                "--foreground",
                # --force: pytest's tmp dirs are 0700, which munged's path
                # checks refuse; only root uses this socket here.
                "--force",
                f"--socket={self.munge_socket}",
                f"--key-file={key}",
                f"--pid-file={self.workdir / 'munge' / 'munged.pid'}",
                f"--seed-file={self.workdir / 'munge' / 'munged.seed'}",
                "--num-threads=2",
            ],
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self._procs["munged"].poll() is not None:
                break
            probe = subprocess.run([_which("munge"), "-n", "-S", str(self.munge_socket)], capture_output=True)
            if probe.returncode == 0:
                return
            time.sleep(0.1)
        raise SlurmClusterError(f"munged did not come up\n{self.log_tails()}")

    def _node_lines(self) -> list[str]:
        # slurmd -C reports the real topology and memory; a config that claims
        # more than the node has would get it drained at registration. Each
        # node of a one-host cluster claims the whole host.
        out = subprocess.run([_which("slurmd"), "-C"], capture_output=True, text=True, check=True)
        first = out.stdout.splitlines()[0].split()
        fields = dict(f.split("=", 1) for f in first[1:])
        fields["RealMemory"] = str(max(1, int(int(fields.get("RealMemory", "1024")) * 0.95)))
        attrs = " ".join(f"{k}={v}" for k, v in fields.items())
        # NodeHostname is the host for every node: slurmd checks it against
        # gethostname() unless -N names the node, which it does here.
        return [
            f"NodeName={node} NodeAddr=127.0.0.1 NodeHostname={self.host} Port={port} {attrs} State=UNKNOWN"
            for node, port in zip(self.nodenames, self.slurmd_ports, strict=True)
        ]

    def _write_task_prolog(self) -> Path:
        """The cluster's one TaskProlog: it runs the node's own hook, if any
        (set_task_prolog), so hooks can change while the cluster runs."""
        dispatcher = self.workdir / "task-prolog"
        dispatcher.write_text(f"""#!/bin/sh
# {SHIM_MARK}: see SlurmCluster.set_task_prolog
hook="{self.task_prolog_dir}/$SLURMD_NODENAME"
if [ -x "$hook" ]; then exec "$hook"; fi
exit 0
""")
        dispatcher.chmod(0o755)
        return dispatcher

    def _write_conf(self) -> None:
        w = self.workdir
        self.slurmctld_port = _free_port()
        ports: list[int] = []
        while len(ports) < len(self.nodenames):
            port = _free_port()
            if port != self.slurmctld_port and port not in ports:
                ports.append(port)
        self.slurmd_ports = ports
        self.slurmd_port = ports[0]
        # Several slurmd on one host: %n (the node's name) keeps their
        # spool, pid and log files apart.
        per_node = "" if len(self.nodenames) == 1 else "-%n"
        plugstack = w / "plugstack.conf"
        plugstack.write_text("")  # no site SPANK plugins from /etc/slurm
        lines = [
            "# written by tests/slurm_cluster.py",
            "ClusterName=crashmatrix",
            f"SlurmctldHost={self.host}(127.0.0.1)",
            f"SlurmctldPort={self.slurmctld_port}",
            f"SlurmdPort={self.slurmd_port}",
            "SlurmUser=root",
            "SlurmdUser=root",
            "AuthType=auth/munge",
            "CredType=cred/munge",
            f"AuthInfo=socket={self.munge_socket}",
            f"StateSaveLocation={w / 'state'}",
            f"SlurmdSpoolDir={self.spool_dir / ('slurmd' + per_node) if per_node else self.spool_dir}",
            f"SlurmctldPidFile={w / 'slurmctld.pid'}",
            f"SlurmdPidFile={w / f'slurmd{per_node}.pid'}",
            f"SlurmctldLogFile={self.logs['slurmctld']}",
            f"SlurmdLogFile={w / 'log' / f'slurmd{per_node}.log'}",
            "SlurmctldDebug=info",
            "SlurmdDebug=info",
            f"TmpFS={w / 'tmp'}",
            f"PlugStackConfig={plugstack}",
            # No cgroups: containers and shared CI machines often lack a
            # writable cgroup tree; linuxproc tracks jobs by parent pid.
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            "JobAcctGatherType=jobacct_gather/none",
            "AccountingStorageType=accounting_storage/none",
            "JobCompType=jobcomp/filetxt",
            f"JobCompLoc={w / 'jobcomp.txt'}",
            "MpiDefault=none",
            "MailProg=/bin/true",
            "SwitchType=switch/none",
            "SchedulerType=sched/backfill",
            "SchedulerParameters=bf_interval=1,sched_min_interval=0",
            "SelectType=select/cons_tres",
            # CR_CPU, not *_Memory: jobs without --mem would otherwise get the
            # whole node's memory and run one at a time.
            "SelectTypeParameters=CR_CPU",
            "ReturnToService=2",
            "SlurmctldTimeout=10",
            "SlurmdTimeout=10",
            "InactiveLimit=0",
            "KillWait=2",
            "MinJobAge=300",
            "MessageTimeout=10",
            "TCPTimeout=2",
            "BatchStartTimeout=10",
            "PrologEpilogTimeout=10",
            "UnkillableStepTimeout=30",
            "HealthCheckInterval=0",
            "MaxJobCount=10000",
            "MaxArraySize=1001",
            f"TaskProlog={self._write_task_prolog()}",
            *self._node_lines(),
            f"PartitionName={self.partition} Nodes={','.join(self.nodenames)} Default=YES "
            "MaxTime=INFINITE State=UP OverSubscribe=NO",
        ]
        self.conf.write_text("\n".join(lines) + "\n")
        # Drop other clusters' sacct shims (a second cluster started while the
        # session fixture's env is in os.environ would otherwise inherit it).
        inherited = [p for p in os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep) if p and not _is_shim_dir(p)]
        path = os.pathsep.join(inherited + ["/usr/sbin", "/sbin"])
        if self.sacct_shim:
            path = f"{self._write_sacct_shim()}:{path}"
        self.env = {"SLURM_CONF": str(self.conf), "PATH": path}

    def _write_sacct_shim(self) -> Path:
        """A `sacct` that answers submitit's state query from squeue.

        This cluster has no accounting database (slurmdbd + MySQL is too heavy
        for a test), so the real sacct exits 1 with "Slurm accounting storage
        is disabled", and submitit then reports every job as UNKNOWN: a job
        that dies without writing its result pickle (segfault, scancel) is
        never `done()`. squeue keeps ended jobs for MinJobAge seconds and
        prints array tasks as submitit expects (`12_3`). Queries other than
        submitit's go to the real sacct.
        """
        bindir = self.workdir / "bin"
        bindir.mkdir(exist_ok=True)
        shim = bindir / "sacct"
        real = _which("sacct") or "/usr/bin/sacct"
        shim.write_text(f"""#!/bin/bash
# {SHIM_MARK}: see SlurmCluster._write_sacct_shim
args=" $* "
if [[ "$args" != *" -o JobID,State,NodeList "* ]]; then exec {real} "$@"; fi
ids=()
while [ $# -gt 0 ]; do
  case "$1" in
    -j|--jobs) ids+=("$2"); shift 2 ;;
    *) shift ;;
  esac
done
echo "JobID|State|NodeList"
sel=$(IFS=,; echo "${{ids[*]}}")
squeue -h -t all -o '%i|%T|%N' ${{sel:+-j "$sel"}} 2>/dev/null
exit 0
""")
        shim.chmod(0o755)
        return bindir

    def _check_alive(self, name: str) -> None:
        proc = self._procs.get(name)
        if proc is not None and proc.poll() is not None:
            stdout = self.workdir / "log" / f"{name}.stdout"
            raise SlurmClusterError(
                f"{name} exited with status {proc.returncode} during start-up\n"
                f"--- {stdout}\n{_tail(stdout)}\n{self.log_tails()}"
            )

    def _wait_for_controller(self, deadline: float) -> None:
        while time.monotonic() < deadline:
            self._check_alive("munged")
            self._check_alive("slurmctld")
            if self.run("scontrol", "ping", check=False, timeout=10).stdout.count("UP"):
                return
            time.sleep(0.2)
        raise SlurmClusterError(f"slurmctld did not answer `scontrol ping`\n{self.log_tails()}")

    def _wait_nodes_idle(self, deadline: float) -> None:
        states: dict[str, str] = {}
        while time.monotonic() < deadline:
            for name in ("munged", "slurmctld", *self._slurmd.values()):
                self._check_alive(name)
            states = {node: self.node_state(node) for node in self.nodenames}
            if set(states.values()) == {"idle"}:
                return
            time.sleep(0.3)
        raise SlurmClusterError(
            f"nodes {', '.join(self.nodenames)} did not all become idle within the start timeout "
            f"(last sinfo states: {states})\n{self.log_tails()}"
        )

    def _cancel_all_jobs(self, deadline: float) -> None:
        self.run("scancel", f"--partition={self.partition}", check=False)
        # Jobs' slurmstepd processes are not children of slurmd; let them
        # finish before slurmd goes, so none outlive the cluster.
        while time.monotonic() < deadline:
            out = self.run("squeue", "-h", "-t", "all", "-o", "%T", check=False, timeout=10)
            live = [
                s for s in out.stdout.split() if s in ("PENDING", "RUNNING", "COMPLETING", "CONFIGURING", "SUSPENDED")
            ]
            if out.returncode != 0 or not live:
                return
            time.sleep(0.3)


def _started(workdir: Path, nodes: int = 1) -> SlurmCluster:
    reason = unavailable_reason()
    if reason:
        pytest.skip(reason)
    return SlurmCluster(workdir, nodes=nodes).start()


@pytest.fixture(scope="session")
def slurm_cluster(tmp_path_factory: pytest.TempPathFactory):
    """A started SlurmCluster for the session; its env is in os.environ meanwhile."""
    cluster = _started(tmp_path_factory.mktemp("slurm"))
    with pytest.MonkeyPatch.context() as mp:
        for key, value in cluster.env.items():
            mp.setenv(key, value)
        try:
            yield cluster
        finally:
            cluster.stop()


@pytest.fixture(scope="session")
def slurm_cluster2(tmp_path_factory: pytest.TempPathFactory):
    """A started two-node SlurmCluster (n1, n2 on this host), from the first test
    that asks for it to the session's end. os.environ is left to `slurm_cluster`:
    give `cluster.env` to what should reach this one. Tests that set a node's
    TaskProlog (set_task_prolog) set it back to None when they finish."""
    cluster = _started(tmp_path_factory.mktemp("slurm2"), nodes=2)
    try:
        yield cluster
    finally:
        cluster.stop()
