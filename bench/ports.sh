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
