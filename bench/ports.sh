# Sourced by the benchmark scripts. wait_for_ports waits (at most 70 s) while connections that
# earlier runs closed still hold more than a quarter of the machine's ephemeral ports: Linux keeps
# each closed connection in TIME_WAIT for 60 s, a load generator past a target's capacity opens
# thousands of them (vegeta up to 4,000 per run), and once the ports run out its new connections
# fail ("bind: address already in use") and the next target measured pays for the one before.
wait_for_ports() {
  local low high limit count waited=0
  read -r low high < /proc/sys/net/ipv4/ip_local_port_range || return 0
  limit=$(( (high - low + 1) / 4 ))
  while count=$(ss -Htan state time-wait 2>/dev/null | wc -l); [ "$count" -gt "$limit" ] && [ "$waited" -lt 70 ]; do
    sleep 5; waited=$((waited + 5))
  done
  if [ "$waited" -gt 0 ]; then
    echo "waited ${waited} s for closed connections to free ephemeral ports ($count of $((high - low + 1)) left in TIME_WAIT)" >&2
  fi
}

# require_free_ports PORT...: the servers a script starts listen on fixed ports, and where those
# lie in the machine's ephemeral range (ip_local_port_range) an outgoing connection may hold one
# of them, and the server started on it fails to bind. Waits (at most 30 s) for every socket
# using one of PORTS as its local port to go (TIME_WAIT ones do not stop a server from binding),
# then names what still holds a port and exits.
require_free_ports() {
  local port held waited=0
  while :; do
    held=$(for port in "$@"; do ss -Htan "( sport = :$port )" 2>/dev/null; done | awk '$1 != "TIME-WAIT"')
    [ -z "$held" ] && return 0
    [ "$waited" -ge 30 ] && break
    sleep 1; waited=$((waited + 1))
  done
  echo "ports this run needs are in use (state, queues, local and remote address):" >&2
  echo "$held" >&2
  echo "reserve them from the ephemeral range, e.g. sysctl -w net.ipv4.ip_local_reserved_ports=$(IFS=,; echo "$*")" >&2
  exit 1
}
