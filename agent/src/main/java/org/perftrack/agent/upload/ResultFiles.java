package org.perftrack.agent.upload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.perftrack.formats.FormatException;
import org.perftrack.formats.Formats;
import org.perftrack.formats.RunContext;
import org.perftrack.wire.FolderZip;
import org.perftrack.wire.FormatGuess;
import org.perftrack.wire.FormatNames;
import org.perftrack.wire.RunUpload;

/**
 * What one FILE or FOLDER of {@code upload} is: its format (given with {@code --format}, or recognised by its
 * shape: the same rules as the server's) and the bytes to send. A folder is a tool's result folder (Criterion's
 * {@code target/criterion}, asv's {@code .asv/results}), read as one zip of the files its converter reads. Each is
 * converted here by the server's own converters ({@code formats}), so a file the server would refuse is refused
 * before anything is spooled or sent, with the server's reason.
 */
public final class ResultFiles {

  /** A file or folder ready to spool. */
  public static final class Item {
    public final Path path;
    public final String format;
    public final byte[] content;
    /** The format was recognised, not given. */
    public final boolean recognised;

    Item(Path path, String format, byte[] content, boolean recognised) {
      this.path = path;
      this.format = format;
      this.content = content;
      this.recognised = recognised;
    }

    public boolean isRun() {
      return FormatNames.PERFTRACK.equals(format);
    }

    /**
     * The run this file is, converted whole as the server converts it (our own run file read with the context
     * overriding what it says); a file that does not convert is refused naming what is wrong, such as the line a
     * cut-off file ends on.
     */
    public RunUpload convert(RunContext context) throws RunFileException {
      try {
        return Formats.byName(format).convert(content, path.toString(), context);
      } catch (FormatException e) {
        throw new RunFileException(e.getMessage() + "; nothing was sent");
      }
    }
  }

  private ResultFiles() {}

  /** @param format the {@code --format} given, or null to recognise it */
  public static Item read(Path path, String format) throws RunFileException, IOException {
    if (Files.isDirectory(path)) {
      return folder(path, format);
    }
    byte[] content;
    try {
      content = Files.readAllBytes(path);
    } catch (NoSuchFileException e) {
      throw new RunFileException(path + ": no such file");
    }
    String seen = FormatGuess.guess(content);
    if (format != null) {
      if (seen != null && !seen.equals(format)) {
        throw new RunFileException(path + ": this looks like a " + FormatGuess.label(seen) + " file, not "
            + FormatGuess.label(format) + " (use --format " + seen + ")");
      }
      return new Item(path, format, content, false);
    }
    if (seen == null && path.getFileName().toString().toLowerCase(java.util.Locale.ROOT).matches(".*\\.csv(\\.gz)?")) {
      throw new RunFileException(path + ": a CSV file goes in with 'perftrack-agent import " + path.getFileName()
          + "' (the layout is in docs/import.md), not with upload");
    }
    if (seen == null) {
      return new Item(path, FormatNames.PERFTRACK, content, false); // read as a run file, which names what is wrong
    }
    return new Item(path, seen, content, !seen.equals(FormatNames.PERFTRACK));
  }

  private static Item folder(Path path, String format) throws RunFileException, IOException {
    String kind = format != null ? format : folderKind(path);
    if (kind == null || !FormatNames.FOLDERS.contains(kind)) {
      throw new RunFileException(path + ": a folder" + (format == null ? " that is neither Criterion.rs's"
          + " target/criterion (…/new/benchmark.json) nor asv's .asv/results (benchmarks.json)"
          : ", but --format " + format + " is a file") + "; folders are sent for " + String.join(" and ", FormatNames.FOLDERS));
    }
    byte[] zip = FolderZip.zip(path, kind);
    if (FormatGuess.guess(zip) == null) {
      throw new RunFileException(path + ": the folder holds none of the files " + FormatGuess.label(kind) + " writes");
    }
    return new Item(path, kind, zip, format == null);
  }

  /** criterion when a …/new/benchmark.json is in it, asv when a benchmarks.json is; else null. */
  private static String folderKind(Path folder) throws IOException {
    try (Stream<Path> files = Files.walk(folder, 8)) {
      boolean[] found = new boolean[2];
      files.forEach(p -> {
        String name = p.getFileName().toString();
        Path parent = p.getParent();
        found[0] |= name.equals("benchmark.json") && parent != null && parent.getFileName().toString().equals("new");
        found[1] |= name.equals("benchmarks.json");
      });
      return found[0] ? "criterion" : found[1] ? "asv" : null;
    }
  }
}
