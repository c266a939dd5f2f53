package org.perftrack.agent.upload;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** One server is one place in the spool however its address is written; two servers are never one. */
class ServerUrlTest {

  @Test
  void schemeAndHostAreLowerCaseAndTheDefaultPortAndTrailingSlashesGo() {
    assertThat(ServerUrl.normalised("HTTP://Lab.Example.COM:80/")).isEqualTo("http://lab.example.com");
    assertThat(ServerUrl.normalised("https://perf.example.com:443//")).isEqualTo("https://perf.example.com");
    assertThat(ServerUrl.normalised(" http://localhost:8080 ")).isEqualTo("http://localhost:8080");
    assertThat(ServerUrl.normalised("http://host:8080/PerfTrack/")).as("the path is the server's own")
        .isEqualTo("http://host:8080/PerfTrack");
    assertThat(ServerUrl.normalised("https://host:80")).as("80 is no https default").isEqualTo("https://host:80");
  }

  @Test
  void oneServerWrittenTwoWaysIsOneFolderAndTwoServersThatReadAlikeAreTwo() {
    assertThat(ServerUrl.folder("http://Lab:80/")).isEqualTo(ServerUrl.folder("http://lab"));
    assertThat(ServerUrl.folder("http://a:8080")).isNotEqualTo(ServerUrl.folder("http://a-8080"))
        .isNotEqualTo(ServerUrl.folder("https://a:8080"));
    assertThat(ServerUrl.folder("http://localhost:8080")).startsWith("localhost-8080-").matches("[a-z0-9.-]+");
  }
}
