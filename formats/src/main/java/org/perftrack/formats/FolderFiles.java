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
 * Only the entries a converter asks for are read, and no more than {@link #MAX_BYTES} unpacked in all, so a
 * zip that unpacks to gigabytes is refused rather than read.
 */
final class FolderFiles {

  static final long MAX_BYTES = 256L << 20;
  static final int MAX_ENTRIES = 100_000;

  private FolderFiles() {}

  /** The wanted entries' contents by path ('/'-separated, as in the zip), in the zip's order. */
  static Map<String, byte[]> unzip(byte[] content, String source, Predicate<String> wanted) throws FormatException {
    if (!hasEnd(content)) {
      throw new FormatException(source + ": truncated zip: the archive's end (its central directory) is missing");
    }
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
          if (total > MAX_BYTES) {
            throw new FormatException(source + ": the zip unpacks to more than " + (MAX_BYTES >> 20) + " MB of result files");
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
