#!/usr/bin/env bash
# Long (root): the Slurm recipe on a real Slurm. Installs Debian's slurm-wlm and munge when
# missing (apt-get), starts munged, slurmctld and slurmd on this machine with a generated
# slurm.conf (one node, localhost, ports of its own), submits deploy/slurm/submit.sh from an empty
# folder, waits for the merge job, and compares the merged class files byte for byte with one
# unsharded run. Then again with a shard whose blockcheck fails: the merge still runs (afterany),
# names the shard, merges the others and ends FAILED. The logs are under GRADES/logs/, none in
# the submitting folder, none named after a NO_VAL task id (4294967294).
set -euo pipefail
blockcheck="$(realpath "$1")"; root="$(realpath "$2")"
source "$root/tests/e2e/lib/common.sh"
[[ $(id -u) == 0 ]] || fail "this test installs packages and starts Slurm's daemons: run it as root"
ws="$(mktemp -d)"; chmod 755 "$ws"
pids=()
cleanup() {
    local pid
    for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2> /dev/null || true; done
    rm -rf "$ws"
}
trap cleanup EXIT
export LANG=C BLOCKCHECK_ROOT="$root"

# 1. The packages and the daemons.
if ! command -v slurmctld > /dev/null || ! command -v slurmd > /dev/null || ! command -v munged > /dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends slurm-wlm munge > "$ws/apt.log" || { cat "$ws/apt.log"; fail "apt-get install slurm-wlm munge"; }
fi
[[ -s /etc/munge/munge.key ]] || mungekey --create --keyfile=/etc/munge/munge.key
chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
if ! munge -n > /dev/null 2>&1; then   # no munged answering yet: start one, as its own user
    install -d -o munge -g munge -m 755 /run/munge
    runuser -u munge -- munged --foreground > "$ws/munged.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 50); do munge -n > /dev/null 2>&1 && break; sleep 0.2; done
    munge -n | unmunge > /dev/null || fail "munged did not start: $(cat "$ws/munged.log")"
fi

host="$(hostname -s)"
mkdir -p "$ws/state" "$ws/spool"
export SLURM_CONF="$ws/slurm.conf"
# The node as slurmd sees it (CPUs, sockets, cores, memory), on localhost.
node="$(slurmd -C | head -1)"
[[ "$node" == "NodeName=$host "* ]] || fail "slurmd -C: $node"
cat > "$SLURM_CONF" <<EOF
ClusterName=blockcheck
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$ws/state
SlurmdSpoolDir=$ws/spool
SlurmctldPidFile=$ws/slurmctld.pid
SlurmdPidFile=$ws/slurmd.pid
SlurmctldLogFile=$ws/slurmctld.log
SlurmdLogFile=$ws/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=3600
MpiDefault=none
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=grading Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -c > "$ws/slurmctld.out" 2>&1 & pids+=($!)
slurmd -D > "$ws/slurmd.out" 2>&1 & pids+=($!)
for _ in $(seq 100); do sinfo -h -o %t 2> /dev/null | grep -qx idle && break; sleep 0.3; done
[[ $(sinfo -h -o %t) == idle ]] ||
    fail "the node is not idle: $(sinfo -h -o '%t %E'; cat "$ws/slurmctld.log" "$ws/slurmd.log" 2> /dev/null | tail -20)"

# 2. The class: seven students with a few chapter-25 programs each, and the unsharded reference.
subs="$ws/submissions"; solved="$root/tests/solved/ch25"
for id in ada bob cy dee eve fay gus; do mkdir -p "$subs/$id"; done
cp "$solved"/rope_quarter_turn_table.cpp "$solved"/swiglu_ffn_2d.cpp "$subs/ada/"
cp "$solved"/rope_quarter_turn_table.cpp "$subs/bob/"
cp "$root"/chapters/ch25/rope_quarter_turn_table.cpp "$root"/chapters/ch25/swiglu_ffn_2d.cpp "$subs/cy/"
cp "$solved"/swiglu_ffn_2d.cpp "$subs/dee/"
cp "$solved"/swiglu_ffn_2d.cpp "$subs/fay/"
cp "$root/tests/hostile/segfault.cpp" "$subs/eve/swiglu_ffn_2d.cpp"
cp "$solved"/rope_quarter_turn_table.cpp "$subs/gus/"
options="--chapter ch25 --cache $ws/cache --cpu 1 --wall 2 --lms canvas"
# shellcheck disable=SC2086
"$blockcheck" grade "$subs" --out "$ws/one" $options > "$ws/one.log"

# finished JOB: waits until the job has ended; prints its state (COMPLETED, FAILED, ...).
finished() {
    local state=""
    for _ in $(seq 1200); do
        state="$(scontrol show job "$1" 2> /dev/null | grep -o 'JobState=[A-Z_]*' | head -1 | cut -d= -f2)"
        [[ "$state" =~ ^(PENDING|RUNNING|CONFIGURING|COMPLETING)$ || -z "$state" ]] || break
        sleep 1
    done
    echo "$state"
}
# submit GRADES BLOCKCHECK: submit.sh from an empty folder, 3 shards; prints "ARRAY MERGE".
submit() {
    mkdir -p "$ws/from-$(basename "$1")" && cd "$ws/from-$(basename "$1")"
    SUBMISSIONS="$subs" GRADES="$1" BLOCKCHECK="$2" GRADE_OPTIONS="$options" SBATCH_MEM_PER_NODE=1G \
        bash "$root/deploy/slurm/submit.sh" 3 > "$1.submit.log"
    cd - > /dev/null
    sed -n 's/^grading array: job \([0-9]*\) (3 tasks); merge: job \([0-9]*\) .*/\1 \2/p' "$1.submit.log"
}

# 3. The recipe as written: three shards, the merge, the unsharded run's files.
read -r array merge <<< "$(submit "$ws/grades" "$blockcheck")"
[[ -n "$merge" ]] || fail "submit.sh: $(cat "$ws/grades.submit.log")"
state="$(finished "$merge")"
[[ $state == COMPLETED ]] || fail "the merge job ended $state: $(cat "$ws/grades/logs/"*.log 2> /dev/null | tail -30)"
for f in gradebook.csv summary.txt lms-canvas.csv; do
    cmp "$ws/one/$f" "$ws/grades/merged/$f" || fail "Slurm: merged $f differs from the unsharded run's"
done
for t in 0 1 2; do [[ -s "$ws/grades/logs/grade-${array}_$t.log" ]] || fail "no log GRADES/logs/grade-${array}_$t.log"; done
grep -q "^merged 7 students from 3 outputs" "$ws/grades/logs/merge-$merge.log" || fail "merge log: $(cat "$ws/grades/logs/merge-$merge.log")"
[[ -z "$(ls -A "$ws/from-grades")" ]] || fail "logs in the submitting folder: $(ls -A "$ws/from-grades")"
! find "$ws" -name '*4294967294*' | grep -q . || fail "a log named after NO_VAL"
echo "slurm: 3 shards and the merge on a real Slurm reproduce the unsharded gradebook"

# 4. Shard 2's blockcheck fails: the merge still runs, names it, merges shards 1 and 3, FAILED.
cat > "$ws/flaky" <<EOF
#!/usr/bin/env bash
[[ " \$* " == *" --shard 2/3 "* ]] && { echo "flaky: shard 2 fails on purpose" >&2; exit 3; }
exec "$blockcheck" "\$@"
EOF
chmod +x "$ws/flaky"
read -r array merge <<< "$(submit "$ws/partial" "$ws/flaky")"
state="$(finished "$merge")"
[[ $state == FAILED ]] || fail "a merge with a failed shard should end FAILED, not $state"
grep -qx "  shard-2: failed: blockcheck grade exited 3" "$ws/partial/logs/merge-$merge.log" ||
    fail "the merge should name shard 2: $(cat "$ws/partial/logs/merge-$merge.log")"
grep -q "flaky: shard 2 fails on purpose" "$ws/partial/logs/grade-${array}_1.log" || fail "shard 2's log"
expected=$(( $(ls "$ws/partial/shard-1/results" "$ws/partial/shard-3/results" | grep -c '\.json$') + 1 ))
[[ $(tr -d '\r' < "$ws/partial/merged/gradebook.csv" | wc -l) == "$expected" ]] || fail "the merge should hold shards 1 and 3"
echo "slurm: a failed shard is named by the merge, which still runs"
echo "slurm single node: 2 passed, 0 failed"
