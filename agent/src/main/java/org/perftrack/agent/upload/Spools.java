package org.perftrack.agent.upload;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.perftrack.agent.text.Words;

/** The whole spool: every server's folder, and the entries spooled before the spool recorded servers. */
public final class Spools {

  /** Sent entries are kept this many days unless {@code spool.keep-sent} says otherwise. */
  public static final int KEEP_SENT_DAYS = 7;

  private final Path root;

  public Spools(Path root) {
    this.root = root;
  }

  public Path root() {
    return root;
  }

  /** Each server's folder, in name order, then the entries that recorded no server (the root itself). */
  public List<Spool> all() throws IOException {
    List<Spool> all = new ArrayList<>();
    if (!Files.isDirectory(root)) {
      return all;
    }
    List<Path> folders = new ArrayList<>();
    try (DirectoryStream<Path> children = Files.newDirectoryStream(root)) {
      for (Path child : children) {
        if (Files.isRegularFile(child.resolve(Spool.SERVER_FILE))) {
          folders.add(child);
        }
      }
    }
    folders.sort(null);
    for (Path folder : folders) {
      Spool spool = Spool.inFolder(root, folder);
      if (spool != null) {
        all.add(spool);
      }
    }
    all.add(new Spool(root, null));
    return all;
  }

  /** Every waiting entry, server by server. */
  public List<SpoolEntry> entries() throws IOException {
    List<SpoolEntry> entries = new ArrayList<>();
    for (Spool spool : all()) {
      entries.addAll(spool.entries());
    }
    return entries;
  }

  /**
   * The runs waiting for other servers than {@code server}, in one line ("2 runs wait for http://other:8080, 1 run
   * spooled before servers were recorded: 'perftrack-agent spool' lists them"); null when there are none.
   */
  public String others(String server) throws IOException {
    Map<String, Integer> counts = new LinkedHashMap<>();
    String self = ServerUrl.normalised(server);
    for (Spool spool : all()) {
      int n = self.equals(spool.server()) ? 0 : spool.pending().size();
      if (n > 0) {
        counts.put(spool.server(), n);
      }
    }
    if (counts.isEmpty()) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    for (Map.Entry<String, Integer> c : counts.entrySet()) {
      parts.add(c.getKey() == null ? Words.count(c.getValue(), "run") + " spooled with no server recorded"
          : Words.count(c.getValue(), "run") + (c.getValue() == 1 ? " waits" : " wait") + " for " + c.getKey());
    }
    return String.join(", ", parts) + ": 'perftrack-agent spool' lists them";
  }

  /** The waiting entries whose id is {@code id} or begins with it. */
  public List<SpoolEntry> find(String id) throws IOException {
    List<SpoolEntry> found = new ArrayList<>();
    for (SpoolEntry e : entries()) {
      if (e.id().toLowerCase(Locale.ROOT).startsWith(id.toLowerCase(Locale.ROOT))) {
        found.add(e);
      }
    }
    return found;
  }

  /**
   * Removes what the spool no longer needs: sent entries older than {@code keepDays} days, and the temporary files
   * of writers that ended before they were done, a day on. Returns how many sent entries it removed.
   */
  public int removeOld(int keepDays) throws IOException {
    long now = System.currentTimeMillis();
    int removed = 0;
    for (Spool spool : all()) {
      removed += removeOlder(spool.sentFolder(), "", now - TimeUnit.DAYS.toMillis(keepDays));
      removeOlder(spool.dir(), Spool.TMP, now - TimeUnit.DAYS.toMillis(1));
    }
    return removed;
  }

  private static int removeOlder(Path dir, String ending, long before) throws IOException {
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    int removed = 0;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path f : files) {
        try {
          if (f.getFileName().toString().endsWith(ending) && Files.isRegularFile(f)
              && Files.getLastModifiedTime(f).toMillis() < before && Files.deleteIfExists(f)) {
            removed++;
          }
        } catch (IOException e) {
          // removed by another agent process meanwhile, or held by a scanner: next time
        }
      }
    }
    return removed;
  }
}
