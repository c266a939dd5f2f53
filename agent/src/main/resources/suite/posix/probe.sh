# Describes the target for the run's attributes: one "perftrack-env KEY=VALUE" line each.
say() { echo "perftrack-env $1=$2"; }
say uname "$(uname -a)"
say os "$(uname -s) $(uname -r)"
say os.version "$(uname -v)"
say cpu "$(grep -m 1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
say cores "$(grep -c '^processor' /proc/cpuinfo 2>/dev/null)"
say memoryKb "$(grep MemTotal /proc/meminfo 2>/dev/null | awk '{print $2}')"
say bash "$BASH_VERSION"
say cygwin "${CYGWIN-}"
case "$(uname -s)" in
  CYGWIN*) say mount "$(mount | tr '\n' ';')" ;;
esac
