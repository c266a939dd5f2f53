package org.perftrack.formats;

import static org.perftrack.wire.RunUpload.LOWER_IS_BETTER;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * Catch2's XML reporter ({@code -r xml}, v2's {@code <Catch>} and v3's {@code <Catch2TestRun>}) with
 * {@code BENCHMARK}s. Catch2 writes each benchmark's mean and standard deviation in nanoseconds, not its
 * samples: each becomes a summary-only result {@code time} (n = {@code samples}). The benchmark is its own name,
 * prefixed with its test case's ({@code Fibonacci > fib 20}) when two test cases use the same name.
 * Document type declarations are refused (no external entities are ever read).
 */
final class Catch2Format extends ForeignFormat<Document> {

  static final String NAME = "catch2";

  Catch2Format() {
    super(NAME, "an XML report with <Catch> or <Catch2TestRun> (a Catch2 test program run with -r xml)");
  }

  @Override
  Document parse(byte[] content, String sourceName) throws FormatException {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setExpandEntityReferences(false);
      DocumentBuilder builder = factory.newDocumentBuilder();
      builder.setErrorHandler(new org.xml.sax.helpers.DefaultHandler()); // errors are thrown, never printed
      return builder.parse(new ByteArrayInputStream(content));
    } catch (SAXParseException e) {
      String what = String.valueOf(e.getMessage()).contains("must start and end within the same entity")
          || String.valueOf(e.getMessage()).contains("Premature end of file") ? "truncated XML: the file ends" : "invalid XML";
      throw new FormatException(sourceName + ": " + what + " at line " + e.getLineNumber() + ", column "
          + e.getColumnNumber() + (what.startsWith("truncated") ? " inside an unfinished element" : ": " + e.getMessage()), e);
    } catch (SAXException | IOException | ParserConfigurationException e) {
      throw new FormatException(sourceName + ": unreadable XML: " + e.getMessage(), e);
    }
  }

  private static final class Bench {
    private final String testCase;
    private final Element element;

    Bench(String testCase, Element element) {
      this.testCase = testCase;
      this.element = element;
    }

    String testCase() {
      return testCase;
    }

    Element element() {
      return element;
    }
  }

  @Override
  void read(Document document, ForeignRun run, String sourceName) throws FormatException {
    Element root = document.getDocumentElement();
    run.attribute("catch2.version", root.getAttribute("catch2-version"));
    run.attribute("catch2.name", root.getAttribute("name"));
    List<Bench> benches = new ArrayList<>();
    NodeList results = root.getElementsByTagName("BenchmarkResults");
    Map<String, Integer> names = new HashMap<>();
    for (int i = 0; i < results.getLength(); i++) {
      Element e = (Element) results.item(i);
      benches.add(new Bench(testCase(e), e));
      names.merge(e.getAttribute("name"), 1, Integer::sum);
    }
    for (int i = 0; i < benches.size(); i++) {
      Bench b = benches.get(i);
      String name = b.element().getAttribute("name");
      if (names.get(name) > 1 && !b.testCase().isEmpty()) {
        name = b.testCase() + " > " + name;
      }
      addBenchmark(run, name, b.element(), "BenchmarkResults[" + i + "]");
    }
    if (!benches.isEmpty()) {
      run.note("Catch2 writes each benchmark's mean and standard deviation, not its samples: summary-only results");
    }
  }

  private static String testCase(Element e) {
    for (org.w3c.dom.Node n = e.getParentNode(); n instanceof Element; n = n.getParentNode()) {
      Element parent = (Element) n;
      if (parent.getTagName().equals("TestCase")) {
        return parent.getAttribute("name");
      }
    }
    return "";
  }

  private static void addBenchmark(ForeignRun run, String name, Element bench, String at) throws FormatException {
    if (Text.blank(name)) {
      throw new FormatException(run.source() + ": " + at + " has no name");
    }
    Element mean = child(bench, "mean");
    if (mean == null) {
      run.fail(name, "no mean (the benchmark failed)");
      return;
    }
    Element sd = child(bench, "standardDeviation");
    int samples = (int) number(run, bench.getAttribute("samples"), at + "@samples");
    run.addSummary(name, "time", "ns", LOWER_IS_BETTER, new ForeignRun.Stats(samples,
        number(run, mean.getAttribute("value"), at + ".mean@value"),
        sd == null ? null : number(run, sd.getAttribute("value"), at + ".standardDeviation@value"), null, null, null));
  }

  private static Element child(Element parent, String tag) {
    NodeList list = parent.getElementsByTagName(tag);
    return list.getLength() == 0 ? null : (Element) list.item(0);
  }

  private static double number(ForeignRun run, String text, String path) throws FormatException {
    try {
      double value = Double.parseDouble(text);
      if (Double.isFinite(value)) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new FormatException(run.source() + ": " + path + " is '" + text + "', not a finite number");
  }
}
