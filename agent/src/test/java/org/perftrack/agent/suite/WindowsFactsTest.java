package org.perftrack.agent.suite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.agent.shell.ShellRunner;
import org.perftrack.agent.shell.Target;
import org.perftrack.agent.shell.TargetShell;
import org.perftrack.wire.RunUpload;

/**
 * Issue 17, item 7: the Windows facts that skew Cygwin results reach the run's machine attributes (which
 * the regression page's environment diff shows). Windows is simulated by stand-ins for uname, cmd, reg,
 * powercfg, wmic and fltmc that answer as on an XP SP3 lab machine with Symantec; the clock resolution is
 * measured for real.
 */
class WindowsFactsTest {

  @TempDir
  Path home;

  private void stub(Path bin, String name, String script) throws Exception {
    Path file = bin.resolve(name);
    Files.writeString(file, "#!/bin/bash\n" + script + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private Path windowsXp() throws Exception {
    Path bin = Files.createDirectories(home.resolve("xp-bin"));
    stub(bin, "uname", "case \"$1\" in -s) echo CYGWIN_NT-5.1 ;; -r) echo '1.5.25(0.156/4/2)' ;;"
        + " -v) echo '2008-06-12 19:34' ;; *) echo 'CYGWIN_NT-5.1 xp-lab-01 1.5.25(0.156/4/2) 2008-06-12 19:34 i686 Cygwin' ;; esac");
    stub(bin, "mount", "echo 'C:\\cygwin\\bin on /usr/bin type system (binmode)'");
    stub(bin, "cmd", "printf '\\r\\nMicrosoft Windows XP [Version 5.1.2600]\\r\\n'");
    stub(bin, "reg", "printf '\\r\\n! REG.EXE VERSION 3.0\\r\\n\\r\\nHKEY_LOCAL_MACHINE\\\\SOFTWARE\\\\Microsoft\\\\Windows NT\\\\CurrentVersion\\r\\n'\n"
        + "case \"$4\" in CSDVersion) printf '\\tCSDVersion\\tREG_SZ\\tService Pack 3\\r\\n' ;;"
        + " CurrentBuildNumber) printf '\\tCurrentBuildNumber\\tREG_SZ\\t2600\\r\\n' ;;"
        + " ProductName) printf '\\tProductName\\tREG_SZ\\tMicrosoft Windows XP\\r\\n' ;; esac");
    stub(bin, "powercfg", "if [ \"$1\" = /query ]; then printf 'Field Description          Value\\r\\n"
        + "-----------------          -----\\r\\nName                       Always On\\r\\nNumerical ID               3\\r\\n';"
        + " else echo 'Invalid Parameters -- try \"/?\" for help'; exit 1; fi");
    stub(bin, "wmic", "case \"$1\" in *SecurityCenter2) echo 'ERROR: Invalid namespace'; exit 1 ;; esac\n"
        + "printf '\\r\\r\\n\\r\\r\\ndisplayName=Symantec AntiVirus Corporate Edition\\r\\r\\n\\r\\r\\n'");
    stub(bin, "fltmc", "printf '\\r\\nFilter Name                     Num Instances    Altitude    Frame\\r\\n"
        + "------------------------------  -------------  ------------  -----\\r\\n"
        + "SymEvent                                3       365100         0\\r\\nSRTSP                                   3       329000         0\\r\\n'");
    return bin;
  }

  @Test
  void windowsVersionServicePackPowerPlanAntivirusFilterDriversAndClocksBecomeMachineAttributes() throws Exception {
    Path bin = windowsXp();
    TargetShell shell = new TargetShell(List.of("/bin/bash", "-c"),
        Map.of("PATH", bin + ":/usr/local/bin:/usr/bin:/bin"), false);
    Target target = new Target("1.5.25", "1.5.25-15", shell, home.resolve("work"));

    PreparedTarget prepared = new TargetSetup(new ShellRunner()).prepare(target, Suite.select(List.of("null-call")));
    RunUpload run = RunAssembler.assemble(measurements(prepared),
        new RunAssembler.Session("cygwin", "xp-lab-01", "9a0e7f6c-0c2d-4e55-8f41-3f1d2c4b5a6e", Map.of()));

    Map<String, String> machine = run.machine().attributes();
    assertThat(machine).containsEntry("windows.version", "Microsoft Windows XP [Version 5.1.2600]")
        .containsEntry("windows.product", "Microsoft Windows XP")
        .containsEntry("windows.build", "2600")
        .containsEntry("windows.service-pack", "Service Pack 3")
        .containsEntry("power.plan", "Always On")
        .containsEntry("security.antivirus", "Symantec AntiVirus Corporate Edition")
        .containsEntry("security.filter-drivers", "SymEvent;SRTSP")
        .containsKeys("clock.gettimeofday-step-us", "clock.cpu-time-step-us", "java");
    assertThat(Double.parseDouble(machine.get("clock.gettimeofday-step-us"))).isPositive();
    assertThat(run.attributes()).containsEntry("output-charset", "UTF-8").containsKey("mount")
        .doesNotContainKeys("machine.windows.version", "windows.version");
  }

  private static Measurements measurements(PreparedTarget prepared) {
    Measurements m = new Measurements(prepared, java.time.Instant.now());
    m.finish(java.time.Instant.now(), false, null);
    return m;
  }
}
