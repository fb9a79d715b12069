#!/bin/sh
# Entrypoint of the Keyright Seats image: Payara Micro with the WAR at the root context.
# - KEYRIGHT_DB_URL set: adds the MariaDB driver and server-config/mariadb.asadmin (pool + jdbc/keyright
#   from KEYRIGHT_DB_URL/USER/PASSWORD); an unreachable database fails the start-up loudly.
# - KEYRIGHT_DB_URL unset: the embedded default database in KEYRIGHT_DATA_DIR (a volume), for trials.
# - Pre-boot (Payara Micro runs only one pre-boot file, so this script writes one): always
#   server-config/hardening.asadmin (no server banner, no Payara /openapi or /metrics) and
#   closed-until-deployed.asadmin (the HTTP port opens once the WAR serves: open-when-deployed.asadmin, the
#   post-deploy file); plus https.asadmin when KEYRIGHT_TLS_KEYSTORE is set (then also pass --sslport 8443,
#   which Payara Micro opens at boot); plus the file KEYRIGHT_PREBOOT_FILE names, if any.
# Arguments (the image's CMD, or those of `docker run IMAGE ...`) are appended to Payara Micro's, e.g.
#   --sslport 8443
# JVM: MEM_MAX_RAM_PERCENTAGE (heap as a share of the container's memory limit), MEM_XSS, JVM_ARGS
# (extra options, e.g. @/opt/payara/config/jmx.options), as in the base image's own entrypoint.
# KEYRIGHT_HOME (default /opt/payara) only exists so docker/verify.sh can run this script outside a container.
set -eu
HOME_DIR=${KEYRIGHT_HOME:-/opt/payara}
PREBOOT=$(mktemp "${TMPDIR:-/tmp}/keyright-preboot.XXXXXX")
cat "$HOME_DIR/config/hardening.asadmin" "$HOME_DIR/config/closed-until-deployed.asadmin" > "$PREBOOT"
if [ -n "${KEYRIGHT_TLS_KEYSTORE:-}" ]; then
    cat "$HOME_DIR/config/https.asadmin" >> "$PREBOOT"
fi
if [ -n "${KEYRIGHT_PREBOOT_FILE:-}" ]; then
    cat "$KEYRIGHT_PREBOOT_FILE" >> "$PREBOOT"
fi
set -- --deploy "$HOME_DIR/deployments/keyright-seats.war" --contextroot / --nohazelcast --prebootcommandfile "$PREBOOT" \
    --postdeploycommandfile "$HOME_DIR/config/open-when-deployed.asadmin" --logproperties "$HOME_DIR/config/logging.properties" "$@"
if [ -n "${KEYRIGHT_DB_URL:-}" ]; then
    set -- --addlibs "$HOME_DIR/lib/mariadb-java-client.jar" \
        --postbootcommandfile "$HOME_DIR/config/mariadb.asadmin" "$@"
fi
# JVM_ARGS holds several options: it is split on purpose.
# shellcheck disable=SC2086
exec java -XX:+UseContainerSupport -XX:MaxRAMPercentage="${MEM_MAX_RAM_PERCENTAGE:-60.0}" \
    -Xss"${MEM_XSS:-512k}" -XX:+ExitOnOutOfMemoryError -XX:-OmitStackTraceInFastThrow -Dfile.encoding=UTF-8 ${JVM_ARGS:-} \
    -jar "${PAYARA_MICRO_JAR:-$HOME_DIR/payara-micro.jar}" "$@"
