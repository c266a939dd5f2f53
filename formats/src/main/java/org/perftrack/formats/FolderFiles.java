package org.perftrack.formats;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipInputStream;

/**
 * A tool's result folder sent as one zip (the agent zips it; by hand: {@code zip -r criterion.zip target/criterion}).
 * Only the entries a converter asks for are read, and no more than {@link #MAX_RATIO} times the zip's own size
 * unpacked in all (at most {@link #MAX_BYTES}): the server reserves heap for a body by its length, so a small zip
 * that unpacks to hundreds of megabytes is refused rather than read. Result files of numbers deflate about 3 to 5
 * times; the tools' own folders stay far below the ratio.
 */
final class FolderFiles {

  static final long MAX_BYTES = 256L << 20;
  static final int MAX_RATIO = 20;
  /** Unpacking up to this much is allowed whatever the zip's size (a folder of a few tiny, repetitive files). */
  static final long MIN_LIMIT = 4L << 20;
  static final int MAX_ENTRIES = 100_000;

  private FolderFiles() {}

  /** The wanted entries' contents by path ('/'-separated, as in the zip), in the zip's order. */
  static Map<String, byte[]> unzip(byte[] content, String source, Predicate<String> wanted) throws FormatException {
    if (!hasEnd(content)) {
      throw new FormatException(source + ": truncated zip: the archive's end (its central directory) is missing");
    }
    long limit = limit(content.length);
    Map<String, byte[]> files = new LinkedHashMap<>();
    long total = 0;
    int entries = 0;
    try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(content))) {
      for (ZipEntry e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
        if (++entries > MAX_ENTRIES) {
          throw new FormatException(source + ": the zip has more than " + MAX_ENTRIES + " entries");
        }
        String path = e.getName().replace('\\', '/');
        if (e.isDirectory() || !wanted.test(path)) {
          continue;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        for (int n = zip.read(buffer); n >= 0; n = zip.read(buffer)) {
          total += n;
          if (total > limit) {
            throw new FormatException(source + ": the zip unpacks to more than " + mb(limit) + " of result files ("
                + MAX_RATIO + " times its own size, at most " + mb(MAX_BYTES) + ")");
          }
          out.write(buffer, 0, n);
        }
        files.put(path, out.toByteArray());
      }
    } catch (ZipException | java.io.EOFException e) {
      throw new FormatException(source + ": truncated or damaged zip after " + entries + " entries: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new FormatException(source + ": unreadable zip: " + e.getMessage(), e);
    }
    return files;
  }

  /** How much a zip of this many bytes may unpack to. */
  static long limit(long zipBytes) {
    return Math.min(MAX_BYTES, Math.max(MIN_LIMIT, MAX_RATIO * zipBytes));
  }

  private static String mb(long bytes) {
    return bytes >= 10L << 20 ? (bytes >> 20) + " MB" : String.format(java.util.Locale.ROOT, "%.1f MB", bytes / 1048576.0);
  }

  /**
   * Whether the zip's end-of-central-directory record is there: a zip cut between two entries reads as a
   * shorter zip entry by entry, only its missing end tells.
   */
  private static boolean hasEnd(byte[] zip) {
    int lowest = Math.max(0, zip.length - 22 - 65_535); // the record is 22 bytes, plus a comment of up to 64 KiB
    for (int i = zip.length - 22; i >= lowest; i--) {
      if (zip[i] == 'P' && zip[i + 1] == 'K' && zip[i + 2] == 5 && zip[i + 3] == 6) {
        return true;
      }
    }
    return false;
  }
}
