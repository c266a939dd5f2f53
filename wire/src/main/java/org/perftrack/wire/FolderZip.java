package org.perftrack.wire;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * A tool's result folder (Criterion's {@code target/criterion}, asv's {@code .asv/results}) as the one zip the
 * server converts: only the files its converter reads, named from the folder's own name down
 * ({@code criterion/sum/100/new/sample.json}), in name order so that the same folder makes the same bytes.
 */
public final class FolderZip {

  /** The files of each folder format that its converter reads; the rest (HTML reports, plots) stays home. */
  private static final Pattern CRITERION = Pattern.compile("(.*/)?new/(benchmark|sample)\\.json");
  private static final Pattern ASV = Pattern.compile(".*\\.json");

  private FolderZip() {}

  /** The zip of the files of {@code folder} that a {@code format} converter reads. */
  public static byte[] zip(Path folder, String format) throws IOException {
    final Pattern wanted = "criterion".equals(format) ? CRITERION : ASV;
    final Path base = folder.toAbsolutePath().normalize().getParent();
    final List<Path> files = new ArrayList<Path>();
    Files.walkFileTree(folder.toAbsolutePath().normalize(), new SimpleFileVisitor<Path>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
        if (attributes.isRegularFile() && wanted.matcher(name(base, file)).matches()) {
          files.add(file);
        }
        return FileVisitResult.CONTINUE;
      }
    });
    Collections.sort(files);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      for (Path file : files) {
        ZipEntry entry = new ZipEntry(name(base, file));
        entry.setTime(0); // the same folder, the same bytes (and so the same run id for a re-sent CI job)
        zip.putNextEntry(entry);
        zip.write(Files.readAllBytes(file));
        zip.closeEntry();
      }
    }
    return bytes.toByteArray();
  }

  private static String name(Path base, Path file) {
    return (base == null ? file : base.relativize(file)).toString().replace('\\', '/');
  }
}
