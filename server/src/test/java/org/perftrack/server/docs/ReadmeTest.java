package org.perftrack.server.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What the READMEs promise a reader: every picture they show is there (a PNG), and bisection is explained
 * where a new user looks for it: that it starts by itself, how to start one by hand, what an agent needs.
 */
class ReadmeTest {

  private static final Path ROOT = Path.of("..");
  private static final Pattern PICTURE = Pattern.compile("!\\[[^\\]]*\\]\\(([^)\\s]+)\\)");

  @Test
  void everyPictureOfTheReadmesAndDocsIsAPngThatExists() throws IOException {
    List<Path> documents = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("agent/README.md")));
    try (var docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).forEach(documents::add);
    }
    List<String> pictures = new ArrayList<>();
    for (Path doc : documents) {
      Matcher m = PICTURE.matcher(Files.readString(doc));
      while (m.find()) {
        Path picture = doc.getParent().resolve(m.group(1)).normalize();
        pictures.add(ROOT.relativize(picture).toString());
        assertThat(picture).as(doc + " shows " + m.group(1)).isRegularFile();
        byte[] head = Files.readAllBytes(picture);
        assertThat(new String(head, 1, 3, java.nio.charset.StandardCharsets.US_ASCII)).as(picture + " is a PNG")
            .isEqualTo("PNG");
      }
    }
    assertThat(pictures).contains("docs/regression.png", "docs/lab.png");
  }

  @Test
  void bisectionIsExplainedInTheReadmeAndTheAgentsReadme() throws IOException {
    String readme = section(Files.readString(ROOT.resolve("README.md")), "## Which version made it slower: bisection");
    assertThat(readme).as("it starts by itself").contains("a bisection starts")
        .as("by hand").contains("\"Bisect\" button", "POST /api/v1/regressions/{id}/bisection")
        .as("what an agent needs").contains("**What an agent needs**", "perftrack-agent serve", "`upload`")
        .as("and how to turn it off").contains("perftrack.lab.bisect-automatically=false")
        .contains("(docs/lab.png)");
    String agent = Files.readString(ROOT.resolve("agent/README.md"));
    assertThat(section(agent, "**Bisection.**")).contains("offers one of them", "\"Bisect\"",
        "POST /api/v1/regressions/{id}/bisection", "(../docs/lab.png)");
  }

  /** The text from a heading (or a paragraph's bold start) to the next heading of the same level. */
  private static String section(String text, String start) {
    int from = text.indexOf(start);
    assertThat(from).as("'" + start + "' is there").isNotNegative();
    int to = text.indexOf("\n## ", from + start.length());
    return text.substring(from, to < 0 ? text.length() : to);
  }
}
