package org.perftrack.agent;

/** Placeholder entry point; the agent issue fills it in. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.out.println("perftrack-agent");
  }
}
