package org.perftrack.agent.upload;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.VersionKey;

/**
 * What waits for one server, one file each, written before any upload so that nothing measured is lost. The spool
 * (its {@code root}) holds a folder per server, named after the server's normalised address, with the address in
 * its {@code server.txt}; in it {@code <id>.json} is a run (also one converted from another tool's file), and
 * {@code <id>.upload} a tool's file an earlier agent left for the server to convert, its first line the
 * {@code ?format=…&id=…} query it is sent with, then the file's bytes. Sent
 * entries move to {@code sent/}; those the server refused for good move to {@code rejected/} next to a
 * {@code .problem.json} holding the server's answer. Entries in the root itself were spooled before the spool
 * recorded servers: a Spool of no server holds them, and they are sent only when named ({@code spool send ID}).
 */
public final class Spool {

  static final String RUN = ".json";
  static final String FOREIGN = ".upload";
  static final String SERVER_FILE = "server.txt";

  /** Renames a file; a test stands in for Windows, where an antivirus scanning the new file makes it fail. */
  interface Mover {
    void move(Path from, Path to) throws IOException;
  }

  /** Waits between attempts at a rename that failed: a scanner holds a new file for a moment. */
  private static final long[] RETRY_MILLIS = {100, 300, 1000, 3000};

  private final Path root;
  private final String server;
  private final Path dir;
  private final Mover mover;
  private final long[] retryMillis;
  private int keepSentDays = Spools.KEEP_SENT_DAYS;

  /** The entries of {@code server} in the spool {@code root}; a null server: those that recorded none. */
  public Spool(Path root, String server) {
    this(root, server, Spool::atomicMove, RETRY_MILLIS);
  }

  /** @param keepSentDays how long sent entries stay in the spool ({@code spool.keep-sent}) */
  public Spool(Path root, String server, int keepSentDays) {
    this(root, server);
    this.keepSentDays = keepSentDays;
  }

  Spool(Path root, String server, Mover mover, long... retryMillis) {
    this(root, server, server == null ? root : root.resolve(ServerUrl.folder(server)), mover, retryMillis);
  }

  private Spool(Path root, String server, Path dir, Mover mover, long... retryMillis) {
    this.root = root;
    this.server = server == null ? null : ServerUrl.normalised(server);
    this.dir = dir;
    this.mover = mover;
    this.retryMillis = retryMillis.clone();
  }

  /** The server folder {@code dir} of the spool {@code root}, as its {@code server.txt} names it; null if none. */
  static Spool inFolder(Path root, Path dir) {
    try {
      List<String> lines = Files.readAllLines(dir.resolve(SERVER_FILE), StandardCharsets.UTF_8);
      String server = lines.isEmpty() ? "" : lines.get(0).trim();
      return server.isEmpty() ? null : new Spool(root, server, dir, Spool::atomicMove, RETRY_MILLIS);
    } catch (IOException e) {
      return null;
    }
  }

  /** The spool this is part of. */
  public Path root() {
    return root;
  }

  /** The folder of this server's entries. */
  public Path dir() {
    return dir;
  }

  /** How many days sent entries stay in the spool. */
  public int keepSentDays() {
    return keepSentDays;
  }

  /** The server's normalised address; null: entries that recorded none. */
  public String server() {
    return server;
  }

  /** Writes the run atomically (a crash leaves the old file or the new one, never half of one). */
  public Path save(RunUpload run) throws IOException {
    return write(run.id() + RUN, WireJson.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(run));
  }

  /**
   * Keeps another tool's file with the query parameters the server converts it with ({@code format},
   * {@code product}, {@code id}…); {@code id} names the entry, so a resend is the same run to the server.
   * Earlier agents spooled tool files so; {@code upload} now converts them itself and spools the run, but such
   * entries left in a spool are still sent. Tests make them with this.
   */
  Path saveForeign(String id, Map<String, String> parameters, byte[] file) throws IOException {
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    content.write(Request.query(parameters).getBytes(StandardCharsets.US_ASCII));
    content.write('\n');
    content.write(file);
    return write(id + FOREIGN, content.toByteArray());
  }

  /** Whether a run or file of this id waits in the spool already. */
  public boolean has(String id) {
    return Files.exists(dir.resolve(id + RUN)) || Files.exists(dir.resolve(id + FOREIGN));
  }

  /** What to send for a spooled entry (read without claiming it). */
  public Request request(Path entry) throws IOException {
    return Request.of(entry.getFileName().toString(), Files.readAllBytes(entry));
  }

  /** Claims an entry for sending it; null when another process holds it or has sent it meanwhile. */
  public Claim claim(Path entry) throws IOException {
    return Claim.take(this, entry);
  }

  /** The files of the entries not yet on the server, in the order they are sent ({@link #entries()}). */
  public List<Path> pending() throws IOException {
    List<Path> files = new ArrayList<>();
    for (SpoolEntry e : entries()) {
      files.add(e.file());
    }
    return files;
  }

  /**
   * The entries not yet on the server, oldest first, except that the runs of one session (one {@code batch}) go in
   * version order ({@link VersionKey}) in the places the session's runs hold: the server judges each run with the
   * versions it has, so a session sent in the order its targets were listed would open a step at a later version
   * and move it back as the earlier ones arrive.
   */
  public List<SpoolEntry> entries() throws IOException {
    if (!Files.isDirectory(dir)) {
      return Collections.emptyList();
    }
    List<Path> oldestFirst;
    try (Stream<Path> files = Files.list(dir)) {
      oldestFirst = files.filter(p -> isEntry(p.getFileName().toString()) && Files.isRegularFile(p))
          .sorted(Comparator.comparing(Spool::modified).thenComparing(Path::getFileName))
          .collect(Collectors.toList());
    }
    List<SpoolEntry> entries = new ArrayList<>();
    for (Path p : oldestFirst) {
      SpoolEntry entry = SpoolEntry.read(p, server);
      if (entry != null) {
        entries.add(entry);
      }
    }
    return sessionsInVersionOrder(entries);
  }

  private static List<SpoolEntry> sessionsInVersionOrder(List<SpoolEntry> entries) {
    Map<String, List<Integer>> places = new LinkedHashMap<>();
    for (int i = 0; i < entries.size(); i++) {
      String batch = entries.get(i).batch();
      if (batch != null && !batch.isEmpty()) {
        places.computeIfAbsent(batch, b -> new ArrayList<>()).add(i);
      }
    }
    List<SpoolEntry> ordered = new ArrayList<>(entries);
    for (List<Integer> at : places.values()) {
      List<Integer> byVersion = new ArrayList<>(at);
      byVersion.sort((a, b) -> VersionKey.compare(version(entries.get(a)), version(entries.get(b))));
      for (int k = 0; k < at.size(); k++) {
        ordered.set(at.get(k), entries.get(byVersion.get(k)));
      }
    }
    return ordered;
  }

  private static String version(SpoolEntry e) {
    return e.version() == null ? "" : e.version();
  }

  /** Where a sent entry is kept (for {@code spool.keep-sent} days). */
  public Path sentFolder() {
    return dir.resolve("sent");
  }

  void sent(Path file) throws IOException {
    Path target = PrivateFiles.folder(sentFolder()).resolve(file.getFileName());
    move(file, target);
    // kept for spool.keep-sent days from now
    Files.setLastModifiedTime(target, FileTime.fromMillis(System.currentTimeMillis()));
  }

  Path reject(Path file, int status, String problem) throws IOException {
    Path rejected = PrivateFiles.folder(dir.resolve("rejected"));
    Path target = rejected.resolve(file.getFileName());
    String body = problem == null || problem.trim().isEmpty() ? "{\"status\": " + status + "}" : problem;
    writePrivate(rejected.resolve(idOf(file) + ".problem.json"), body.getBytes(StandardCharsets.UTF_8));
    move(file, target);
    return target;
  }

  /** An entry's id: its file's name without {@code .json} or {@code .upload}. */
  static String idOf(Path file) {
    return file.getFileName().toString().replaceFirst("\\.(json|upload)$", "");
  }

  private Path write(String name, byte[] content) throws IOException {
    if (server == null) {
      throw new IllegalStateException("new entries go to a server's folder");
    }
    PrivateFiles.tighten(root);
    PrivateFiles.folder(dir);
    Path label = dir.resolve(SERVER_FILE);
    if (!Files.exists(label)) {
      Path tmp = dir.resolve(SERVER_FILE + tmpSuffix());
      writePrivate(tmp, (server + "\n").getBytes(StandardCharsets.UTF_8));
      move(tmp, label);
    }
    Path file = dir.resolve(name);
    Path tmp = dir.resolve(name + tmpSuffix());
    writePrivate(tmp, content);
    move(tmp, file);
    return file;
  }

  /** Writes a new file that only its owner can read from the start. */
  private static void writePrivate(Path file, byte[] content) throws IOException {
    try (SeekableByteChannel out = Files.newByteChannel(file, EnumSet.of(StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE), PrivateFiles.file(file))) {
      ByteBuffer buffer = ByteBuffer.wrap(content);
      while (buffer.hasRemaining()) {
        out.write(buffer);
      }
    }
  }

  /** A temporary file's end: its own for each writer, as two processes may spool the same run at once. */
  private static String tmpSuffix() {
    return "." + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE) + TMP;
  }

  static final String TMP = ".tmp";

  static boolean isEntry(String name) {
    return name.endsWith(RUN) || name.endsWith(FOREIGN);
  }

  /** Renames, trying again a few times: a failure that lasts gives the last attempt's error. */
  private void move(Path from, Path to) throws IOException {
    for (int attempt = 0; ; attempt++) {
      try {
        mover.move(from, to);
        return;
      } catch (NoSuchFileException e) {
        throw e;
      } catch (IOException e) {
        if (attempt >= retryMillis.length) {
          throw e;
        }
        pause(retryMillis[attempt], e);
      }
    }
  }

  private static void pause(long millis, IOException failure) throws IOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failure;
    }
  }

  private static void atomicMove(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static long modified(Path p) {
    try {
      return Files.getLastModifiedTime(p).toMillis();
    } catch (IOException e) {
      return Long.MAX_VALUE;
    }
  }
}
