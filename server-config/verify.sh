#!/usr/bin/env bash
# Exercises every file of server-config/ on a real Payara Micro with the built WAR, by real requests:
#   mariadb.asadmin + --addlibs   the app runs on a fresh MariaDB database through jdbc/keyright
#                                 with no SQL trace listener (the pool's plain connection wrappers in the heap)
#   https.asadmin + --sslport     HTTPS answers with the throwaway keytool certificate (checked with
#                                 curl --cacert, TLS 1.3; TLS 1.1 refused) and the whole seat lifecycle
#                                 runs over it (.ci/lifecycle-smoke)
#   jmx.options + jmx.access      JmxProbe.java reads java.lang:type=Runtime over remote JMX with a password;
#                                 a wrong password is refused
#   jvm.options                   the flags are in force (jcmd VM.command_line); heap and RSS are reported
#   logging.properties            every log record is one JSON object; the start-up line is among them
#   the README's run command      a second start, from an empty directory with no database setting: the embedded
#                                 default (H2 in ./keyright-data), hardening.asadmin + local-only.asadmin +
#                                 closed-until-deployed.asadmin, open-when-deployed.asadmin and
#                                 console-logging.properties, watched from before it starts (no answer before its
#                                 first 200); the lifecycle smoke test, then what strangers see
# One server at a time, loopback only (an extra pre-boot line binds the listeners to 127.0.0.1), bounded
# in time (the server is killed after 10 minutes whatever happens), and it cleans up after itself (server,
# database, user, temp files). Exits non-zero on the first failure. About 1-1.5 minutes on 2 cores.
#   server-config/verify.sh            KEEP=1 server-config/verify.sh   (keep the temp dir for inspection)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../.ci/deploy-lib.sh
source "$ROOT/.ci/deploy-lib.sh"
STARTED=$SECONDS

require_build
ensure_mariadb
for tool in curl jq openssl keytool jcmd xxd ss; do command -v $tool >/dev/null || die "$tool is missing"; done

WORK=$(mktemp -d /tmp/keyright-verify.XXXXXX)
DB="keyright_deploy_verify_$$"
DB_USER="kr_verify_$$"
# Payara Micro 7 (Jakarta EE 11, Java 21+: run with a JDK 21+ first on PATH) takes mariadb-payara7.asadmin,
# whose passwords cannot hold ':', ';', '=' or '\' (see that file); 6 keeps them with mariadb.asadmin.
if [ "${PAYARA_MICRO_VERSION%%.*}" -ge 7 ]; then
    MARIADB_ASADMIN=mariadb-payara7.asadmin
    DB_PASSWORD="pw-$(openssl rand -hex 12)_x.y!z"
    PASSWORD_NOTE="a password with '-', '_', '.' and '!'"
else
    MARIADB_ASADMIN=mariadb.asadmin
    DB_PASSWORD="pw:$(openssl rand -hex 12);x=\\y"   # ":", ";", "=" and a backslash: the pool must keep them
    PASSWORD_NOTE="a password with ':', ';', '=' and '\\'"
fi
PGID=""
SERVER_LOG="$WORK/server.log"   # the log of the server being checked: the one a failure report shows
cleanup() {
    local rc=$?
    LISTENERS=""
    if [ "$rc" -ne 0 ] && [ -n "$PGID" ] && kill -0 -- "-$PGID" 2>/dev/null; then
        # Still running: what it listens on and where its main thread is, shown last (a start that never opened its
        # port failed in CI once, 2026-12-07 00:13 UTC, on Payara Micro 7; not reproduced in 15 starts here).
        LISTENERS=$(listeners_of "$PGID" | tr '\n' ' ' || true)
        local pid; pid=$(pgrep -g "$PGID" -f payara-micro | tail -1 || true)
        if [ -n "$pid" ]; then jcmd "$pid" Thread.print > "$WORK/threads.txt" 2>/dev/null || true; fi
    fi
    [ -n "$PGID" ] && stop_group "$PGID"
    drop_database "$DB" "$DB_USER"
    if [ "$rc" -ne 0 ]; then
        echo "--- last 25 lines of the server log ($SERVER_LOG):" >&2
        tail -n 25 "$SERVER_LOG" 2>/dev/null | cut -c1-300 >&2 || true
        if [ -s "$WORK/threads.txt" ]; then
            echo "--- listeners of the server still running: $LISTENERS" >&2
            echo "--- its main thread:" >&2
            sed -n '/^"main"/,/^$/p' "$WORK/threads.txt" | head -16 >&2 || true
        fi
        if [ -n "$FAILURE" ]; then echo "--- FAILED: $FAILURE" >&2; fi   # set by die (.ci/deploy-lib.sh)
    fi
    if [ "${KEEP:-0}" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
    log "server-config/verify.sh: $([ "$rc" -eq 0 ] && echo PASSED || echo FAILED) in $((SECONDS - STARTED)) s"
}
trap cleanup EXIT

HTTP=$(free_port); HTTPS=$(free_port); JMX=$(free_port)
[ "$HTTP" != "$HTTPS" ] && [ "$HTTPS" != "$JMX" ] && [ "$HTTP" != "$JMX" ] || die "port clash, run again"
ADMIN_PASSWORD="verify-$(openssl rand -hex 8)"
TLS_PASSWORD="tls-$(openssl rand -hex 8)"
JMX_PASSWORD="jmx-$(openssl rand -hex 8)"

log "database $DB on 127.0.0.1:3306; ports http $HTTP, https $HTTPS, jmx $JMX; work dir $WORK"
create_database "$DB" "$DB_USER" "$DB_PASSWORD"   # with server-config/mariadb-setup.sql
if mariadb_root -e "SET @db='${DB}_never', @user='${DB_USER}_never'; $(cat "$ROOT/server-config/mariadb-setup.sql")" 2>/dev/null; then
    die "server-config/mariadb-setup.sql ran without @password"
fi
make_keystore "$WORK" "$TLS_PASSWORD"
cp "$WAR" "$WORK/keyright-seats.war"   # a private copy: a concurrent `mvn package` cannot swap it mid-boot
printf 'keyright-monitor %s\n' "$JMX_PASSWORD" > "$WORK/jmx.password"
chmod 600 "$WORK/jmx.password"
# Payara Micro runs only the last --prebootcommandfile: https.asadmin plus the loopback binding.
cat "$ROOT/server-config/https.asadmin" "$ROOT/server-config/local-only.asadmin" > "$WORK/preboot.asadmin"

log "starting Payara Micro $PAYARA_MICRO_VERSION on $(java -version 2>&1 | head -1) with every server-config file ($MARIADB_ASADMIN)"
(
    cd "$WORK"
    export KEYRIGHT_DB_URL="jdbc:mariadb://127.0.0.1:3306/$DB?sessionVariables=innodb_lock_wait_timeout=3"
    export KEYRIGHT_DB_USER="$DB_USER" KEYRIGHT_DB_PASSWORD="$DB_PASSWORD"
    export KEYRIGHT_ADMIN_PASSWORD="$ADMIN_PASSWORD" KEYRIGHT_DATA_DIR="$WORK/data"
    KEYRIGHT_KEY_SECRET="verify-secret-$(openssl rand -hex 16)"; export KEYRIGHT_KEY_SECRET
    export KEYRIGHT_TLS_KEYSTORE="$WORK/keystore.p12" KEYRIGHT_TLS_KEYSTORE_PASSWORD="$TLS_PASSWORD"
    exec setsid timeout 600 java @"$ROOT/server-config/jvm.options" @"$ROOT/server-config/jmx.options" \
        -Dcom.sun.management.jmxremote.port="$JMX" -Dcom.sun.management.jmxremote.rmi.port="$JMX" \
        -Dcom.sun.management.jmxremote.password.file="$WORK/jmx.password" \
        -Dcom.sun.management.jmxremote.access.file="$ROOT/server-config/jmx.access" \
        -jar "$MICRO_JAR" --deploy "$WORK/keyright-seats.war" --contextroot / --nohazelcast \
        --rootdir "$WORK/micro" --port "$HTTP" --sslport "$HTTPS" \
        --addlibs "$DRIVER_JAR" --postbootcommandfile "$ROOT/server-config/$MARIADB_ASADMIN" \
        --prebootcommandfile "$WORK/preboot.asadmin" --logproperties "$ROOT/server-config/logging.properties"
) > "$WORK/server.log" 2>&1 &
PGID=$!
BOOT=$SECONDS
wait_for_url "http://127.0.0.1:$HTTP/.well-known/jwks.json" 300 "$PGID" || die "the application did not answer within 300 s"
log "ready after $((SECONDS - BOOT)) s"

# --- mariadb.asadmin --------------------------------------------------------------------------------
grep '^{' "$WORK/server.log" | jq -r 'select(.LogMessage != null) | .LogMessage' > "$WORK/messages.txt" || true
grep -q "Keyright Seats is ready on the data source jdbc/keyright" "$WORK/messages.txt" \
    || die "mariadb.asadmin: the application is not running on jdbc/keyright"
[ "$(mariadb_root -N -e "SELECT COUNT(*) FROM \`$DB\`.schema_history WHERE success = 1")" -ge 1 ] \
    || die "mariadb.asadmin: no schema migration in $DB"
! grep -qF "$DB_PASSWORD" "$WORK/server.log" || die "mariadb.asadmin: the database password appears in the log"
log "ok - $MARIADB_ASADMIN: running on jdbc/keyright -> MariaDB $DB (migrated; $PASSWORD_NOTE accepted and never logged)"

# --- https.asadmin ------------------------------------------------------------------------------------
JWKS=$(curl -sS --fail --max-time 10 --cacert "$WORK/cert.pem" "https://127.0.0.1:$HTTPS/.well-known/jwks.json") \
    || die "https.asadmin: no answer over HTTPS with the keystore's certificate as the only trusted CA"
jq -e '.keys | length >= 1' <<< "$JWKS" >/dev/null || die "https.asadmin: JWKS over HTTPS is not JSON with keys: $JWKS"
SUBJECT=$(openssl s_client -connect "127.0.0.1:$HTTPS" -servername localhost </dev/null 2>/dev/null | openssl x509 -noout -subject)
grep -q "Keyright verify" <<< "$SUBJECT" || die "https.asadmin: the server presents another certificate: $SUBJECT"
if curl -s -o /dev/null --max-time 10 --cacert "$WORK/cert.pem" --tlsv1.1 --tls-max 1.1 "https://127.0.0.1:$HTTPS/.well-known/jwks.json"; then
    die "https.asadmin: TLS 1.1 was accepted"
fi
log "ok - https.asadmin: JWKS over TLS with the keytool certificate ($SUBJECT); TLS 1.1 refused"
CURL_EXTRA="--cacert $WORK/cert.pem" "$ROOT/.ci/lifecycle-smoke" "https://127.0.0.1:$HTTPS" "$ADMIN_PASSWORD" \
    | sed 's/^/    /' || die "https.asadmin: the seat lifecycle over HTTPS failed"
[ "$(mariadb_root -N -e "SELECT COUNT(*) FROM \`$DB\`.license")" -ge 1 ] \
    || die "mariadb.asadmin: the license made over HTTP is not in MariaDB"
log "ok - seat lifecycle over HTTPS, stored in MariaDB"

# --- jmx.options ----------------------------------------------------------------------------------------
PROBE=$(java "$ROOT/server-config/JmxProbe.java" "127.0.0.1:$JMX" keyright-monitor "$JMX_PASSWORD") \
    || die "jmx.options: JMX did not answer on 127.0.0.1:$JMX: $PROBE"
sed 's/^/    /' <<< "$PROBE"
# the values, not only the names: the seat service saw the smoke test's acquisitions, and the database answers
# (in any order: an MXBean's attribute order is its methods' reflection order, which a JVM does not promise)
SERVICE=$(grep -E '^  dev\.keyright:type=SeatService ' <<< "$PROBE" || true)
grep -Eq ' Acquisitions=[1-9][0-9]*( |$)' <<< "$SERVICE" && grep -Eq ' DatabaseReachable=true( |$)' <<< "$SERVICE" \
    || die "jmx.options: JmxProbe did not read the SeatService's values (acquisitions made, database reachable)"
grep -Eq '^  dev\.keyright:type=SeatPool,license=[^ ]+ .*MaxSeats=[1-9]' <<< "$PROBE" \
    || die "jmx.options: JmxProbe did not read a SeatPool's values"
if java "$ROOT/server-config/JmxProbe.java" "127.0.0.1:$JMX" keyright-monitor wrong-password >/dev/null; then
    die "jmx.options: a wrong JMX password was accepted"
fi
JAVA_PID=$(pgrep -g "$PGID" -f payara-micro | tail -1)
# jcmd's attach can time out on a busy machine (seen once in CI on Payara Micro 7, the check passing at once
# when run again): up to three attaches, and what jcmd said when none shows the port.
AGENT=""
for attempt in 1 2 3; do
    AGENT=$(jcmd "$JAVA_PID" ManagementAgent.status 2>&1) && grep -q "com.sun.management.jmxremote.port = $JMX" <<< "$AGENT" && break
done
grep -q "com.sun.management.jmxremote.port = $JMX" <<< "$AGENT" \
    || die "jmx.options: jcmd ManagementAgent.status (pid $JAVA_PID) does not show the agent on port $JMX: $(head -c 600 <<< "$AGENT")"
log "ok - jmx.options: remote JMX on 127.0.0.1:$JMX with password authentication (wrong password refused; jcmd ManagementAgent.status agrees)"

# --- mariadb.asadmin: no SQL trace listener -----------------------------------------------------------------
# Without --sqltracelisteners=null Payara gives the pool a do-nothing trace listener and hands out a profiled
# connection wrapper (dynamic proxies and reflection on every JDBC call). A pooled connection keeps the last
# wrapper it handed out, so after the smoke test the heap shows which kind the pool used.
WRAPPERS=$(jcmd "$JAVA_PID" GC.class_histogram 2>/dev/null | grep -E ' com\.sun\.gjc\.spi\.jdbc40\.(Profiled)?ConnectionWrapper40( |$)' || true)
grep -q ' com.sun.gjc.spi.jdbc40.ConnectionWrapper40' <<< "$WRAPPERS" && ! grep -q 'ProfiledConnectionWrapper40' <<< "$WRAPPERS" \
    || die "$MARIADB_ASADMIN: the pool does not hand out the plain connection wrapper (SQL tracing on?): $(tr -s ' \n' ' ' <<< "$WRAPPERS")"
log "ok - $MARIADB_ASADMIN: the pool hands out plain connection wrappers (no SQL trace listener)"

# --- jvm.options --------------------------------------------------------------------------------------
CMDLINE=$(jcmd "$JAVA_PID" VM.command_line 2>/dev/null) || die "jvm.options: jcmd cannot reach the server"
for flag in $(grep -v '^#' "$ROOT/server-config/jvm.options"); do
    grep -qF -- "$flag" <<< "$CMDLINE" || die "jvm.options: $flag is not in force"
done
HEAP=$(jcmd "$JAVA_PID" GC.heap_info 2>/dev/null | grep -oE 'total [0-9]+K, used [0-9]+K' | head -1)
RSS=$(awk '/VmRSS/ {print int($2/1024) " MB"}' "/proc/$JAVA_PID/status")
log "ok - jvm.options: every flag in force (jcmd VM.command_line); after the smoke test heap $HEAP, RSS $RSS"

# --- logging.properties -----------------------------------------------------------------------------------
# Records are JSON; only the SLF4J no-binding notice (printed to stderr by slf4j-api itself) is not a log record.
BAD=$(grep -v -e '^{' -e '^SLF4J: ' -e '^$' "$WORK/server.log" | head -3 || true)
[ -z "$BAD" ] || die "logging.properties: non-JSON log output: $BAD"
grep '^{' "$WORK/server.log" | jq -e -s 'length > 20 and all(.[]; has("Level") and has("LoggerName") and has("Timestamp"))' >/dev/null \
    || die "logging.properties: a log line is not a JSON record with Level, LoggerName and Timestamp"
grep -q "Keyright Seats is ready" "$WORK/messages.txt" || die "logging.properties: the start-up record is missing"
! grep -q $'\e\[' "$WORK/server.log" || die "logging.properties: ANSI colour codes in the log"
log "ok - logging.properties: $(grep -c '^{' "$WORK/server.log") JSON log records, no ANSI codes"

# --- loopback only ----------------------------------------------------------------------------------------
for port in "$HTTP" "$HTTPS" "$JMX"; do
    listeners_of "$PGID" | grep -qE "^(\[::ffff:)?127\.0\.0\.1\]?:$port$" || die "port $port is not bound to 127.0.0.1: $(listeners_of "$PGID" | tr '\n' ' ')"
done
log "ok - HTTP, HTTPS and JMX listen on 127.0.0.1 only"
stop_group "$PGID"; PGID=""

# --- the README's run command: the embedded default, hardening.asadmin, local-only.asadmin, console logging ------
# The same arguments as the README's first line (its <(cat ...) written to a file; a free port instead of 8080), from
# an empty working directory with no KEYRIGHT_DB_* setting: the data lands in ./keyright-data.
mkdir -p "$WORK/readme"
cat "$ROOT/server-config/hardening.asadmin" "$ROOT/server-config/local-only.asadmin" \
    "$ROOT/server-config/closed-until-deployed.asadmin" > "$WORK/readme-preboot.asadmin"
README_HTTP=$(free_port)
log "the README's run command on Payara Micro $PAYARA_MICRO_VERSION: embedded default, hardening.asadmin + local-only.asadmin + closed-until-deployed.asadmin, open-when-deployed.asadmin, console logging (port $README_HTTP)"
(
    cd "$WORK/readme"
    unset "${!KEYRIGHT_@}"
    export KEYRIGHT_ADMIN_PASSWORD="$ADMIN_PASSWORD"
    exec setsid timeout 600 java -jar "$MICRO_JAR" --deploy "$WORK/keyright-seats.war" --contextroot / --nohazelcast \
        --prebootcommandfile "$WORK/readme-preboot.asadmin" --postdeploycommandfile "$ROOT/server-config/open-when-deployed.asadmin" \
        --logproperties "$ROOT/server-config/console-logging.properties" \
        --rootdir "$WORK/readme-micro" --port "$README_HTTP"
) > "$WORK/readme.log" 2>&1 &
PGID=$!
SERVER_LOG="$WORK/readme.log"
BOOT=$SECONDS
# Watched as it starts, every 20 ms: every answer before the first 200 is recorded.
BOOT_ANSWERS="$WORK/readme-boot-answers.txt"
: > "$BOOT_ANSWERS"
WAIT_EVERY=0.02 WAIT_ANSWERS="$BOOT_ANSWERS" wait_for_url "http://127.0.0.1:$README_HTTP/.well-known/jwks.json" 300 "$PGID" \
    || die "the README's command: no 200 within 300 s (answers before: $(tr '\n' ';' < "$BOOT_ANSWERS"))"
[ "$(cat "$BOOT_ANSWERS")" = "200 application/json" ] \
    || die "the README's command answered before it served (closed-until-deployed.asadmin): $(tr '\n' ';' < "$BOOT_ANSWERS")"
log "ok - while it started, the port refused connections until the first answer, a 200 (no container error page)"
grep -q "Keyright Seats is ready on the embedded database in" "$WORK/readme.log" \
    || die "the README's command: no 'ready on the embedded database' line in its console log"
log "ready after $((SECONDS - BOOT)) s; $(wc -l < "$WORK/readme.log") console lines"
if grep -E "SEVERE|Exception|Boot Command .*failed" "$WORK/readme.log" | head -5 | grep .; then
    die "the README's command: errors in its console log (above)"
fi
# Warnings are reported, once each (Payara Micro 7 warns that persistent EJB timers need the full profile, once
# per timer bean, though both timers here are non-persistent: docs/DEPLOYMENT.md).
grep -E " WARNING " "$WORK/readme.log" | sed -E 's/^[0-9: -]+WARNING //' | cut -c1-160 | sort | uniq -c | sed 's/^/    log: WARNING x/' || true
"$ROOT/.ci/lifecycle-smoke" "http://127.0.0.1:$README_HTTP" "$ADMIN_PASSWORD" | sed 's/^/    /' \
    || die "the README's command: the seat lifecycle failed"
compgen -G "$WORK/readme/keyright-data/*.mv.db" > /dev/null \
    || die "the README's command: no H2 file in ./keyright-data"
log "ok - the README's command serves the seat lifecycle on the embedded database (./keyright-data)"
# --- hardening.asadmin: what strangers see
HEADERS=$(curl -sS -D - -o /dev/null --max-time 10 "http://127.0.0.1:$README_HTTP/.well-known/jwks.json")
! grep -iE '^server:' <<< "$HEADERS" | grep -qivE '^server: Keyright' \
    || die "hardening.asadmin: the container's Server header: $(grep -i '^server:' <<< "$HEADERS")"
MALFORMED=$(printf 'GARBAGE\r\n\r\n' | timeout 3 bash -c "exec 3<>/dev/tcp/127.0.0.1/$README_HTTP; cat >&3; cat <&3" 2>/dev/null || true)
! grep -qiE '^server: *(payara|glassfish|grizzly)' <<< "$MALFORMED" || die "hardening.asadmin: a malformed request's answer names the container"
! grep -qi '^x-powered-by:' <<< "$HEADERS" || die "hardening.asadmin: an X-Powered-By header"
TRACE=$(curl -sS -X TRACE -D - -o /dev/null --max-time 10 "http://127.0.0.1:$README_HTTP/v1/seats")
grep -q '^HTTP/1.1 405' <<< "$TRACE" && grep -qi '^content-type: application/problem+json' <<< "$TRACE" \
    || die "hardening.asadmin: TRACE is not the application's 405 problem: $(head -1 <<< "$TRACE")"
for path in /openapi /metrics; do
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "http://127.0.0.1:$README_HTTP$path")
    [ "$code" = 404 ] || die "hardening.asadmin: $path answered $code, not the application's 404"
done
BEYOND=$(listeners_of "$PGID" | grep -vE "^(\[::ffff:)?127\.0\.0\.1\]?:" || true)
[ -z "$BEYOND" ] || die "local-only.asadmin: listens beyond 127.0.0.1: $(tr '\n' ' ' <<< "$BEYOND")"
log "ok - hardening.asadmin and local-only.asadmin: no container Server banner (a malformed request's answer too) or X-Powered-By header, TRACE is the application's 405, /openapi and /metrics 404, 127.0.0.1 only"
log "all server-config checks passed"
