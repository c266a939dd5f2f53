package org.perftrack.server.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.IntegrationTest;
import org.springframework.beans.factory.annotation.Autowired;

/** Issue 12 item 1: no local user gets into the embedded PostgreSQL without its password. */
class EmbeddedDatabaseAccessTest extends IntegrationTest {

  @Autowired EmbeddedPostgresServer db;

  @Test
  void psqlWithoutThePasswordIsRefusedOverTcpAndTheSocket() throws Exception {
    Psql tcp = psql(Map.of(), "-h", "127.0.0.1", "-p", Integer.toString(db.port()));
    assertThat(tcp.exit()).as(tcp.output()).isNotZero();
    assertThat(tcp.output()).containsAnyOf("password authentication failed", "no password supplied");

    Psql socket = psql(Map.of(), "-h", db.dir().toString(), "-p", Integer.toString(db.port()));
    assertThat(socket.exit()).as(socket.output()).isNotZero();
    assertThat(socket.output()).containsAnyOf("password authentication failed", "no password supplied");

    Psql withPassword = psql(Map.of("PGPASSWORD", db.password()), "-h", "127.0.0.1", "-p", Integer.toString(db.port()));
    assertThat(withPassword.exit()).as("the control: " + withPassword.output()).isZero();
    assertThat(withPassword.output()).contains("42");
  }

  @Test
  void jdbcWithoutThePasswordIsRefused() {
    for (String password : new String[] {"", "postgres", "wrong"}) {
      try (var c = DriverManager.getConnection(db.jdbcUrl(), "postgres", password)) {
        throw new AssertionError("connected with password '" + password + "'");
      } catch (SQLException e) {
        assertThat(e.getSQLState()).as(e.getMessage()).isIn("28P01", "08004");
      }
    }
  }

  @Test
  void thePasswordFileAndTheSocketAreTheOwnersOnlyAndPostgresListensOnLoopback() throws IOException {
    Path file = db.dir().resolve(DbPassword.FILE);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    assertThat(Files.readString(file).strip()).isEqualTo(db.password()).hasSizeGreaterThanOrEqualTo(40);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(db.dir()))).isEqualTo("rwx------");
    assertThat(db.dir().resolve(".s.PGSQL." + db.port())).exists();
    assertThat(jdbc.sql("SHOW listen_addresses").query(String.class).single()).isEqualTo("127.0.0.1");
    assertThat(jdbc.sql("SHOW unix_socket_directories").query(String.class).single()).isEqualTo(db.dir().toString());
    assertThat(Files.readString(db.dir().resolve("pg_hba.conf"))).doesNotContain("trust");
  }

  record Psql(int exit, String output) {}

  private static Psql psql(Map<String, String> env, String... where) throws Exception {
    List<String> cmd = new java.util.ArrayList<>(List.of("/usr/bin/psql", "-w", "-U", "postgres", "-d", "postgres"));
    cmd.addAll(List.of(where));
    cmd.addAll(List.of("-tAc", "SELECT 42"));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().remove("PGPASSWORD");
    pb.environment().put("PGPASSFILE", "/dev/null");
    pb.environment().putAll(env);
    Process p = pb.start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Psql(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
  }
}
