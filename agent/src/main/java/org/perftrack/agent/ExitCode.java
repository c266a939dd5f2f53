package org.perftrack.agent;

/** The exit codes of the commands, and how {@code --help} explains them. */
public final class ExitCode {

  public static final int OK = 0;
  public static final int ERROR = 1;
  public static final int USAGE = 2;
  public static final int REGRESSION = 3;
  public static final int SPOOLED = 4;

  static final String HELP_0 = "0:done; every run is on the server (or --dry-run)";
  static final String HELP_1 = "1:error: bad config or file, a run rejected, the token refused, no perftrack server at the URL, Ctrl-C";
  static final String HELP_2 = "2:usage: unknown option or missing argument";
  static final String HELP_3 = "3:the server found regressions (with --fail-on-regression, or --fail-on confirmed)";
  static final String HELP_4 = "4:the server was unreachable: the runs wait in the spool; 'upload' sends them later";
  static final String HELP_ORDER = "%nWhen several apply: 1 before 3 before 4.";

  private ExitCode() {}
}
