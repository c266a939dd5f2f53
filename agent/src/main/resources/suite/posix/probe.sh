# Describes the target for the run's attributes: one "perftrack-env KEY=VALUE" line each. Keys starting
# with "machine." describe the machine rather than this target and go into the run's machine attributes.
say() { echo "perftrack-env $1=$2"; }
oneline() { tr -d '\r' | grep -v '^ *$' | tr '\n' ';' | sed 's/;$//'; }
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
if [ -r /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor ]; then
  say machine.cpu.governor "$(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor)"
fi
case "$(uname -s)" in
  CYGWIN*)
    say mount "$(mount | tr '\n' ';')"
    # The Windows facts that skew Cygwin results; each tool is tried, a missing one leaves the key out.
    nt='HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion'
    regval() { reg query "$nt" /v "$1" 2>/dev/null | tr -d '\r' | sed -n "s/^[[:space:]]*$1[[:space:]]*REG_[A-Z_]*[[:space:]]*//p"; }
    say machine.windows.version "$(cmd /c ver 2>/dev/null | oneline)"
    say machine.windows.product "$(regval ProductName)"
    say machine.windows.build "$(regval CurrentBuildNumber)"
    say machine.windows.service-pack "$(regval CSDVersion)"
    # Vista and later name the active plan; XP's powercfg has no /getactivescheme, its /query shows the active scheme
    say machine.power.plan "$( (powercfg /getactivescheme 2>/dev/null || powercfg /query 2>/dev/null) \
        | tr -d '\r' | sed -n 's/^Power Scheme GUID: [^ ]* *(\(.*\))/\1/p; s/^Name *\(.*\)/\1/p' | head -n 1)"
    # antivirus as the Security Center knows it (XP SP2: root\SecurityCenter, Vista and later: SecurityCenter2)
    av=$(wmic /namespace:'\\root\SecurityCenter2' path AntiVirusProduct get displayName /value 2>/dev/null \
        | tr -d '\r' | sed -n 's/^displayName=//p' | oneline)
    [ -n "$av" ] || av=$(wmic /namespace:'\\root\SecurityCenter' path AntiVirusProduct get displayName /value \
        2>/dev/null | tr -d '\r' | sed -n 's/^displayName=//p' | oneline)
    say machine.security.antivirus "$av"
    # file system filter drivers (antivirus, backup, encryption); fltmc needs an administrator
    say machine.security.filter-drivers "$(fltmc filters 2>/dev/null | tr -d '\r' \
        | awk 'NF && $1 !~ /^(Filter|-)/ {print $1}' | oneline)"
    ;;
esac
