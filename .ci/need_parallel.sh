# Sourced by the shard scripts: installs GNU parallel from Debian's
# packages when it is missing (as root, or through sudo).
if ! command -v parallel >/dev/null; then
  echo "installing GNU parallel"
  # A new machine has no package lists yet: install finds nothing before
  # an update.
  if [ "$(id -u)" = 0 ]; then apt-get update -q >/dev/null && apt-get install -y -q parallel >/dev/null
  else sudo apt-get update -q >/dev/null && sudo apt-get install -y -q parallel >/dev/null; fi
fi
