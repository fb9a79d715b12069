#!/usr/bin/env bash
# A three-node MariaDB Galera cluster on 127.0.0.1 for the tests (and for an operator who wants to try one):
# three mariadbd processes (Debian's, wsrep built in; the galera-4 provider), each with its own data directory,
# client port, group-communication port, IST port and SST port, bootstrapped from node 1, the other two joined
# by rsync SST. Nothing is installed or changed outside DIR; every wait is bounded.
#
#   galera-cluster.sh start  DIR BASE   bootstrap node 1, join nodes 2 and 3; return when all three are Synced
#                                       (node i: client port BASE+10i, gcomm +1, IST +2, SST +3); root has no
#                                       password, over TCP from 127.0.0.1 only
#   galera-cluster.sh kill   DIR N      SIGKILL node N (no shutdown: a crash)
#   galera-cluster.sh rejoin DIR N      start node N again; return when it is Synced with the others
#   galera-cluster.sh status DIR N      print node N's wsrep_local_state_comment and wsrep_cluster_size
#   galera-cluster.sh stop   DIR        SIGKILL every node and remove DIR
set -euo pipefail
PROVIDER=${GALERA_PROVIDER:-/usr/lib/galera/libgalera_smm.so}
LIMIT=${GALERA_WAIT_SECONDS:-120}
die() { echo "galera-cluster: $*" >&2; exit 1; }

command=${1:-}; DIR=${2:-}
[ -n "$command" ] && [ -n "$DIR" ] || die "usage: galera-cluster.sh start|kill|rejoin|status|stop DIR [BASE|N]"

port() { echo $(( $(cat "$DIR/base") + 10 * $1 + ${2:-0} )); }

write_config() {
    local i=$1 peers="" j
    for j in 1 2 3; do peers="$peers${peers:+,}127.0.0.1:$(port "$j" 1)"; done
    cat > "$DIR/n$i.cnf" <<CNF
[mysqld]
user = mysql
datadir = $DIR/n$i/data
socket = $DIR/n$i/mysqld.sock
pid-file = $DIR/n$i/mysqld.pid
log-error = $DIR/n$i/error.log
port = $(port "$i")
bind-address = 127.0.0.1
skip-name-resolve
character-set-server = utf8mb4
collation-server = utf8mb4_bin
innodb_buffer_pool_size = 64M
innodb_log_file_size = 32M
# What Galera requires: row-based replication, interleaved auto-increment locks, InnoDB.
binlog_format = ROW
innodb_autoinc_lock_mode = 2
default_storage_engine = InnoDB
wsrep_on = ON
wsrep_provider = $PROVIDER
wsrep_cluster_name = keyright-galera
wsrep_cluster_address = gcomm://$peers
wsrep_node_name = n$i
wsrep_node_address = 127.0.0.1:$(port "$i" 1)
wsrep_provider_options = "base_host=127.0.0.1;base_port=$(port "$i" 1);ist.recv_addr=127.0.0.1:$(port "$i" 2);gcache.size=64M;evs.suspect_timeout=PT3S;evs.inactive_timeout=PT6S"
wsrep_sst_method = rsync
wsrep_sst_receive_address = 127.0.0.1:$(port "$i" 3)
CNF
}

launch() {  # node, extra mariadbd options...
    local i=$1; shift
    start-stop-daemon --start --background --pidfile "$DIR/n$i/launch.pid" --make-pidfile \
        --exec /usr/sbin/mariadbd -- --defaults-file="$DIR/n$i.cnf" "$@"
}

sql() {  # node, statement
    mariadb --no-defaults --socket="$DIR/n$1/mysqld.sock" -uroot -N -B -e "$2" 2>/dev/null
}

state() { sql "$1" "SHOW STATUS LIKE 'wsrep_local_state_comment'" | cut -f2; }
size() { sql "$1" "SHOW STATUS LIKE 'wsrep_cluster_size'" | cut -f2; }

await_synced() {  # node, expected cluster size
    local i=$1 deadline=$((SECONDS + LIMIT))
    until [ "$(state "$i")" = Synced ] && [ "$(size "$i")" = "$2" ]; do
        if [ $SECONDS -ge $deadline ]; then
            tail -n 30 "$DIR/n$i/error.log" >&2 || true
            die "node $i not Synced in a cluster of $2 within ${LIMIT} s"
        fi
        sleep 0.5
    done
}

mariadbd_pid() { cat "$DIR/n$1/launch.pid" 2>/dev/null || true; }

kill_node() {
    local pid; pid=$(mariadbd_pid "$1")
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        kill -KILL "$pid"
        local deadline=$((SECONDS + 30))
        while kill -0 "$pid" 2>/dev/null; do
            [ $SECONDS -ge $deadline ] && die "node $1 (pid $pid) did not die"
            sleep 0.1
        done
    fi
    # rsync daemons an SST left behind
    pkill -KILL -f "rsync --daemon.*$DIR/n$1/" 2>/dev/null || true
}

case "$command" in
start)
    BASE=${3:?BASE port}
    rm -rf "$DIR"; mkdir -p "$DIR"; echo "$BASE" > "$DIR/base"
    for i in 1 2 3; do
        mkdir -p "$DIR/n$i/data"; write_config "$i"
        for offset in 0 1 2 3; do
            ss -Htln "sport = :$(port "$i" "$offset")" | grep -q . && die "port $(port "$i" "$offset") is taken"
        done
    done
    chown -R mysql:mysql "$DIR"
    mariadb-install-db --defaults-file="$DIR/n1.cnf" --auth-root-authentication-method=normal \
        --skip-test-db > "$DIR/install.log" 2>&1 || { cat "$DIR/install.log" >&2; die "mariadb-install-db failed"; }
    launch 1 --wsrep-new-cluster
    await_synced 1 1
    sql 1 "DELETE FROM mysql.global_priv WHERE User = ''; CREATE USER IF NOT EXISTS 'root'@'127.0.0.1';
           GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION" || die "root over TCP"
    launch 2; await_synced 2 2
    launch 3; await_synced 3 3
    await_synced 1 3
    echo "galera-cluster: 3 nodes Synced on 127.0.0.1:$(port 1),$(port 2),$(port 3)"
    ;;
kill)
    kill_node "${3:?N}"
    ;;
rejoin)
    i=${3:?N}
    [ -z "$(mariadbd_pid "$i")" ] || ! kill -0 "$(mariadbd_pid "$i")" 2>/dev/null || die "node $i is running"
    launch "$i"
    await_synced "$i" 3
    echo "galera-cluster: node $i rejoined"
    ;;
status)
    echo "$(state "${3:?N}") $(size "$3")"
    ;;
stop)
    if [ -f "$DIR/base" ]; then
        for i in 1 2 3; do kill_node "$i" || true; done
    fi
    rm -rf "$DIR"
    ;;
*) die "unknown command $command" ;;
esac
