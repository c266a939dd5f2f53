package org.perftrack.server.feeds;

import java.io.StringWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import org.perftrack.server.problems.InvalidInput;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * An Atom feed written with StAX, so every title, text and address is escaped as XML; characters XML cannot carry
 * (control characters a benchmark name or a note might hold) are dropped. Entry ids are the caller's: stable ones,
 * so that a reader shows an entry once however often it fetches the feed.
 */
public final class AtomFeed {

  static final String ATOM = "http://www.w3.org/2005/Atom";
  public static final MediaType MEDIA_TYPE = MediaType.parseMediaType("application/atom+xml;charset=UTF-8");
  /** The most entries a feed carries: the newest. */
  public static final int MAX_ENTRIES = 100;
  /** The longest {@code product} or {@code machine} a feed's address may name. */
  static final int MAX_FILTER = 200;

  /** One entry: {@code link} the page it is about (absolute), {@code text} a plain-text summary of it. */
  public record Entry(String id, String title, Instant updated, String link, String text) {}

  /** {@code id} and {@code self}: the feed's own address; {@code alternate}: the page that lists the same. */
  public record Feed(String id, String title, String self, String alternate, List<Entry> entries) {}

  /**
   * What one feed lists, served by {@link FeedPages} at {@code /feeds/<name>.atom?product=&machine=}: a bean in the
   * package of what it lists. The filters are checked ({@link #filter}) before it is asked; null is no filter.
   */
  public interface Source {

    /** The feed's name in its address: {@code regressions} for {@code /feeds/regressions.atom}. */
    String name();

    /** Its title before the filters' scope: "perftrack: regressions". */
    String title();

    /** The path of the page that lists the same ("/regressions?product=cygwin"). */
    String page(String product, String machine);

    List<Entry> entries(String product, String machine);
  }

  /** The link a page shows to the feed of what it lists, scoped to the page's filter: its path and its words. */
  public record Link(String url, String title) {

    /** The feed {@code name} of {@code what} ("regressions"), for a page filtered to {@code product} and {@code machine}. */
    public static Link of(String name, String what, String product, String machine) {
      String p = product == null || product.isBlank() ? null : product;
      String m = machine == null || machine.isBlank() ? null : machine;
      return new Link("/feeds/" + name + ".atom" + query(p, m), "perftrack: " + what + scope(p, m));
    }
  }

  private AtomFeed() {}

  /** The feed as an HTTP answer ({@code application/atom+xml}), its entries newest first, at most {@link #MAX_ENTRIES}. */
  static ResponseEntity<String> answer(Feed feed) {
    return ResponseEntity.ok().contentType(MEDIA_TYPE).body(write(feed));
  }

  /** A bad filter as the API answers it (problem+json naming the field), not as a page: a feed's reader is a program. */
  static ResponseEntity<ProblemDetail> refused(InvalidInput e) {
    ProblemDetail pd = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
    pd.setProperty("fields", e.fields());
    return ResponseEntity.badRequest().body(pd);
  }

  /** A feed address's filter ({@code product}, {@code machine}): blank is none; too long is a 400 naming it. */
  static String filter(String field, String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    if (value.length() > MAX_FILTER) {
      throw new InvalidInput(field, "must be at most " + MAX_FILTER + " characters");
    }
    if (value.chars().anyMatch(Character::isISOControl)) {
      throw new InvalidInput(field, "must not hold control characters");
    }
    return value.strip();
  }

  /** The filters as a feed address's query ("?product=cygwin&machine=xp"), values URL-encoded; never a token. */
  public static String query(String product, String machine) {
    StringBuilder q = new StringBuilder();
    if (product != null) {
      q.append("?product=").append(encode(product));
    }
    if (machine != null) {
      q.append(q.isEmpty() ? "?" : "&").append("machine=").append(encode(machine));
    }
    return q.toString();
  }

  /** The filters as the end of a feed's title (" of cygwin on xp"), or nothing. */
  static String scope(String product, String machine) {
    return (product == null ? "" : " of " + product) + (machine == null ? "" : " on " + machine);
  }

  private static String encode(String s) {
    return java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
  }

  static String write(Feed feed) {
    List<Entry> entries = feed.entries().stream().sorted(Comparator.comparing(Entry::updated).reversed()
        .thenComparing(Entry::id)).limit(MAX_ENTRIES).toList();
    // a feed with no entries is as old as the oldest instant there is: readers see nothing new
    Instant updated = entries.isEmpty() ? Instant.EPOCH : entries.get(0).updated();
    StringWriter out = new StringWriter();
    try {
      XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(out);
      x.writeStartDocument("UTF-8", "1.0");
      x.writeStartElement("feed");
      x.writeDefaultNamespace(ATOM);
      text(x, "id", feed.id());
      text(x, "title", feed.title());
      text(x, "updated", stamp(updated));
      link(x, "alternate", feed.alternate());
      link(x, "self", feed.self());
      x.writeStartElement("author");
      text(x, "name", "perftrack");
      x.writeEndElement();
      text(x, "generator", "perftrack");
      for (Entry e : entries) {
        x.writeStartElement("entry");
        text(x, "id", e.id());
        text(x, "title", e.title());
        text(x, "updated", stamp(e.updated()));
        link(x, "alternate", e.link());
        text(x, "summary", e.text());
        x.writeEndElement();
      }
      x.writeEndElement();
      x.writeEndDocument();
      x.close();
    } catch (XMLStreamException e) {
      throw new IllegalStateException("writing an Atom feed in memory failed", e);
    }
    return out.toString();
  }

  private static void text(XMLStreamWriter x, String element, String text) throws XMLStreamException {
    x.writeStartElement(element);
    x.writeCharacters(xmlChars(text == null ? "" : text));
    x.writeEndElement();
  }

  private static void link(XMLStreamWriter x, String rel, String href) throws XMLStreamException {
    x.writeEmptyElement("link");
    x.writeAttribute("rel", rel);
    x.writeAttribute("href", xmlChars(href));
  }

  private static String stamp(Instant at) {
    return at.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  /** The text without the characters XML 1.0 cannot hold (controls other than tab, newline and return; lone surrogates). */
  static String xmlChars(String s) {
    StringBuilder b = new StringBuilder(s.length());
    s.codePoints().filter(c -> c == 0x9 || c == 0xA || c == 0xD || c >= 0x20 && c <= 0xD7FF
        || c >= 0xE000 && c <= 0xFFFD || c >= 0x10000 && c <= 0x10FFFF).forEach(b::appendCodePoint);
    return b.toString();
  }
}
