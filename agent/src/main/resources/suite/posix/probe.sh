# Describes the target for the run's attributes: one "perftrack-env KEY=VALUE" line each.
say() { echo "perftrack-env $1=$2"; }
say uname "$(uname -a)"
say os "$(uname -s) $(uname -r)"
say os.version "$(uname -v)"
if [ -r /proc/cpuinfo ]; then
  say cpu "$(grep -m 1 'model name' /proc/cpuinfo | sed 's/.*: //')"
  say cores "$(grep -c '^processor' /proc/cpuinfo)"
  say memoryKb "$(grep MemTotal /proc/meminfo 2>/dev/null | awk '{print $2}')"
else # the BSDs
  say cpu "$(sysctl -n hw.model 2>/dev/null)"
  say cores "$(sysctl -n hw.ncpu 2>/dev/null)"
  say memoryKb "$(sysctl -n hw.physmem 2>/dev/null | awk '{print int($1 / 1024)}')"
fi
say bash "$BASH_VERSION"
say cygwin "${CYGWIN-}"
case "$(uname -s)" in
  CYGWIN*) say mount "$(mount | tr '\n' ';')" ;;
esac
