package org.perftrack.agent.shell;

import java.lang.reflect.Method;
import java.util.stream.Stream;

/**
 * Ends a process with its children. {@code Process.descendants()} (Java 9) is called by reflection
 * because the agent is built for Java 8; a Java 8 runtime cannot list a process's children, and there
 * {@link ShellRunner} ends the script's process group instead ({@link ProcessGroups}).
 */
final class ProcessTrees {

  private static final Method DESCENDANTS = method(Process.class, "descendants");
  private static final Method DESTROY_FORCIBLY = handleMethod("destroyForcibly");

  private ProcessTrees() {}

  /** Twice over the tree: a benchmark may fork a helper between the first look and the kill. */
  static void end(Process process) {
    for (int pass = 0; pass < 2; pass++) {
      destroyDescendants(process);
    }
    process.destroyForcibly();
  }

  /** Whether this runtime can see a process's children (Java 9 or later). */
  static boolean seesChildren() {
    return DESCENDANTS != null && DESTROY_FORCIBLY != null;
  }

  private static void destroyDescendants(Process process) {
    if (!seesChildren()) {
      return;
    }
    try {
      try (Stream<?> children = (Stream<?>) DESCENDANTS.invoke(process)) {
        children.forEach(ProcessTrees::destroy);
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      // the tree could not be walked; the process itself is still ended by the caller
    }
  }

  private static void destroy(Object handle) {
    try {
      DESTROY_FORCIBLY.invoke(handle);
    } catch (ReflectiveOperationException | RuntimeException e) {
      // already gone, or not ours to end
    }
  }

  private static Method method(Class<?> type, String name) {
    try {
      return type.getMethod(name);
    } catch (NoSuchMethodException e) {
      return null;
    }
  }

  private static Method handleMethod(String name) {
    try {
      return method(Class.forName("java.lang.ProcessHandle"), name);
    } catch (ClassNotFoundException e) {
      return null;
    }
  }
}
