package org.perftrack.server.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TableCell;
import org.commonmark.ext.gfm.tables.TableRow;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * A run's report is read by CI: its names are data, never markup. Hostile names of every kind a run carries (product,
 * version, machine, branch, benchmark, metric, unit) go through the server, and the Markdown is read as GitHub reads
 * it (CommonMark with GFM tables): no image, no foreign link, no raw HTML, no mention, the table whole; the JUnit
 * report parses as XML and gives each name back exactly.
 */
class RunReportNamesTest extends IntegrationTest {

  private static final Parser MARKDOWN = Parser.builder().extensions(List.of(TablesExtension.create())).build();

  // a name that starts a line would open an HTML block hiding everything after it
  private final String product = "<!-- " + unique("cygwin");
  private final String machine = "@perf-team <img src=x onerror=alert(1)> " + unique("xp");
  private final String benchmark = "![pwn](https://evil.example/p.png) [win](https://evil.example) | `x` ``y";
  private final String metric = "**time**&amp;<b>op</b>";
  private final String branch = "pr-1/@org/team_*x*";

  @Test
  void hostileNamesAreTextInTheCommentAndTheJunitReport() throws Exception {
    upload(run(product, "1.0", machine, hostile(18.0)));
    String id = upload(run(product, "2.0 [v](javascript:alert(1))", machine, hostile(48.0)));
    String onBranch = upload(run(product, "2.1", machine, hostile(18.0)).onBranch(branch, "1.0"));

    for (String run : List.of(id, onBranch)) {
      Node doc = MARKDOWN.parse(get("/api/v1/runs/" + run + "/report?format=markdown", "text/markdown"));
      Found found = new Found();
      doc.accept(found);

      assertThat(found.images).as("no image").isEmpty();
      assertThat(found.links).as("the one link is the run's page on the public URL")
          .containsExactly(PUBLIC_URL + "/runs/" + run);
      assertThat(found.html).as("raw HTML is only the report's own <details>")
          .allMatch(h -> h.matches("(?s)</?details>.*|<summary>.*|</summary>.*"));
      assertThat(found.text).as("no mention outside code").noneMatch(t -> t.contains("@"));
      assertThat(found.code).contains(product, machine);
    }
    Node regressed = MARKDOWN.parse(get("/api/v1/runs/" + id + "/report?format=markdown", "text/markdown"));
    List<List<String>> table = table(regressed);
    assertThat(table).as("header and one row, seven cells each").hasSize(2).allMatch(row -> row.size() == 7);
    assertThat(table.get(1).subList(0, 2)).containsExactly(benchmark, metric);
    Found found = new Found();
    regressed.accept(found);
    assertThat(found.code).contains("2.0 [v](javascript:alert(1))", "1.0", benchmark, metric);

    Element testcase = (Element) junit(id).getElementsByTagName("testcase").item(0);
    assertThat(testcase.getAttribute("classname")).isEqualTo(benchmark);
    assertThat(testcase.getAttribute("name")).isEqualTo(metric);
    assertThat(testcase.getElementsByTagName("failure").getLength()).isEqualTo(1);
    assertThat(((Element) junit(onBranch).getElementsByTagName("testsuite").item(0)).getAttribute("name"))
        .contains(product, machine, branch);
  }

  @Test
  void namesWithNoncharactersAreRefusedSinceNoXmlFileCanHoldThem() {
    for (String name : List.of("a\uFFFEb", "a\uFFFF", "\uFDD0x", "x\uDBFF\uDFFF")) {
      Http.Response product = http().postJson("/api/v1/runs", json(run(name, "1.0", unique("m"), hostile(1))), TOKEN);
      Http.Response bench = http().postJson("/api/v1/runs", json(run(unique("p"), "1.0", unique("m"),
          new RunUpload.ResultUpload("b" + name, "time-per-op", "us", RunUpload.LOWER_IS_BETTER, List.of(1.0)))),
          TOKEN);

      assertThat(product.status()).as(product.body()).isEqualTo(400);
      assertThat(product.json().get("fields").get(0).get("field").asString()).isEqualTo("product");
      assertThat(product.body()).contains("noncharacter");
      assertThat(bench.status()).as(bench.body()).isEqualTo(400);
      assertThat(bench.body()).contains("results[0].benchmark");
    }
  }

  private RunUpload.ResultUpload hostile(double level) {
    return new RunUpload.ResultUpload(benchmark, metric, "<i>u</i>", RunUpload.LOWER_IS_BETTER,
        List.of(level, level * 1.01, level * 0.99, level * 1.005, level * 0.995));
  }

  /** What a renderer makes of the comment. */
  private static final class Found extends AbstractVisitor {
    final List<String> images = new ArrayList<>();
    final List<String> links = new ArrayList<>();
    final List<String> html = new ArrayList<>();
    final List<String> text = new ArrayList<>();
    final List<String> code = new ArrayList<>();

    @Override
    public void visit(Image image) {
      images.add(image.getDestination());
    }

    @Override
    public void visit(Link link) {
      links.add(link.getDestination());
      visitChildren(link);
    }

    @Override
    public void visit(HtmlInline inline) {
      html.add(inline.getLiteral());
    }

    @Override
    public void visit(HtmlBlock block) {
      html.add(block.getLiteral());
    }

    @Override
    public void visit(Text t) {
      text.add(t.getLiteral());
    }

    @Override
    public void visit(Code c) {
      code.add(c.getLiteral());
    }
  }

  /** The table's rows, each cell's text (code spans' text as it shows). */
  private static List<List<String>> table(Node doc) {
    List<List<String>> rows = new ArrayList<>();
    for (Node n = doc.getFirstChild(); n != null; n = n.getNext()) {
      if (n instanceof TableBlock) {
        collectRows(n, rows);
        return rows;
      }
    }
    throw new AssertionError("no table");
  }

  private static void collectRows(Node parent, List<List<String>> rows) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNext()) {
      if (n instanceof TableRow) {
        List<String> cells = new ArrayList<>();
        for (Node c = n.getFirstChild(); c != null; c = c.getNext()) {
          cells.add(textOf((TableCell) c));
        }
        rows.add(cells);
      } else {
        collectRows(n, rows);
      }
    }
  }

  private static String textOf(Node cell) {
    StringBuilder s = new StringBuilder();
    cell.accept(new AbstractVisitor() {
      @Override
      public void visit(Text t) {
        s.append(t.getLiteral());
      }

      @Override
      public void visit(Code c) {
        s.append(c.getLiteral());
      }
    });
    return s.toString();
  }

  private Document junit(String id) throws Exception {
    String xml = get("/api/v1/runs/" + id + "/report?format=junit", "application/xml");
    return DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
  }

  private String get(String path, String contentType) {
    Http.Response r = http().getWithToken(path, TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    assertThat(r.contentType()).startsWith(contentType);
    return r.body();
  }

  private String upload(RunUpload run) {
    Http.Response r = http().postJson("/api/v1/runs", json(run), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json().get("id").asString();
  }
}
