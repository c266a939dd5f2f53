package org.perftrack.agent.upload;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.AclEntry;
import java.nio.file.attribute.AclEntryFlag;
import java.nio.file.attribute.AclEntryPermission;
import java.nio.file.attribute.AclEntryType;
import java.nio.file.attribute.AclFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The spool is its user's alone: folders 0700 and files 0600 on POSIX; on Windows (NTFS) the spool's folder gets
 * an ACL with one entry, full control for its owner, that the files and folders in it inherit. A spool made before
 * this was so is made private the next time it is opened.
 */
final class PrivateFiles {

  static final Set<PosixFilePermission> FOLDER = PosixFilePermissions.fromString("rwx------");
  static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

  private PrivateFiles() {}

  /** Makes {@code dir} and the folders up to it that do not exist yet; the new ones and {@code dir} are private. */
  static Path folder(Path dir) throws IOException {
    Path parent = dir.toAbsolutePath().getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      folder(parent);
    }
    if (!Files.isDirectory(dir)) {
      try {
        Files.createDirectory(dir, attributes(dir.getFileSystem().supportedFileAttributeViews().contains("posix"),
            FOLDER));
      } catch (java.nio.file.FileAlreadyExistsException e) {
        // another agent process made it first
      }
      restrict(dir, true);
    }
    return dir;
  }

  /** Attributes for a new file that only its owner may read: 0600 where files have POSIX permissions. */
  static FileAttribute<?>[] file(Path file) {
    return attributes(file.getFileSystem().supportedFileAttributeViews().contains("posix"), FILE);
  }

  private static FileAttribute<?>[] attributes(boolean posix, Set<PosixFilePermission> permissions) {
    return posix ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(permissions)}
        : new FileAttribute<?>[0];
  }

  /**
   * Makes a spool private that was not: {@code root} and everything in it, once (a root that is private already is
   * left as it is).
   */
  static void tighten(Path root) throws IOException {
    if (!Files.isDirectory(root) || isPrivate(root)) {
      return;
    }
    Files.walkFileTree(root, new SimpleFileVisitor<Path>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
        restrict(dir, true);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        if (attrs.isRegularFile()) {
          try {
            restrict(file, false);
          } catch (NoSuchFileException e) {
            // sent, or removed, by another agent process meanwhile
          }
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
        if (e instanceof NoSuchFileException) {
          return FileVisitResult.CONTINUE;
        }
        throw e;
      }
    });
  }

  /** Whether a folder is private already (true where there are neither permissions nor ACLs: nothing to do). */
  private static boolean isPrivate(Path dir) throws IOException {
    PosixFileAttributeView posix = Files.getFileAttributeView(dir, PosixFileAttributeView.class);
    if (posix != null) {
      return posix.readAttributes().permissions().equals(FOLDER);
    }
    AclFileAttributeView acl = Files.getFileAttributeView(dir, AclFileAttributeView.class);
    return acl == null || acl.getAcl().equals(ownerOnly(acl.getOwner(), true));
  }

  /** 0700/0600 on POSIX; an owner-only ACL where there are ACLs (Windows); nothing where there are neither. */
  static void restrict(Path path, boolean folder) throws IOException {
    PosixFileAttributeView posix = Files.getFileAttributeView(path, PosixFileAttributeView.class);
    if (posix != null) {
      posix.setPermissions(folder ? FOLDER : FILE);
      return;
    }
    AclFileAttributeView acl = Files.getFileAttributeView(path, AclFileAttributeView.class);
    if (acl != null) {
      acl.setAcl(ownerOnly(acl.getOwner(), folder));
    }
  }

  /** One entry: its owner may do everything; in a folder, inherited by what is made in it. */
  static List<AclEntry> ownerOnly(UserPrincipal owner, boolean folder) {
    AclEntry.Builder entry = AclEntry.newBuilder().setType(AclEntryType.ALLOW).setPrincipal(owner)
        .setPermissions(EnumSet.allOf(AclEntryPermission.class));
    if (folder) {
      entry.setFlags(AclEntryFlag.FILE_INHERIT, AclEntryFlag.DIRECTORY_INHERIT);
    }
    return Collections.unmodifiableList(Arrays.asList(entry.build()));
  }
}
