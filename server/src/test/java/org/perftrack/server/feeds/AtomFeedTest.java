package org.perftrack.server.feeds;

import static org.assertj.core.api.Assertions.assertThat;

import com.rometools.rome.feed.synd.SyndEntry;
import com.rometools.rome.feed.synd.SyndFeed;
import com.rometools.rome.io.SyndFeedInput;
import java.io.StringReader;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a feed reader (ROME) reads back from a feed whose texts hold markup, quotes and control characters. */
class AtomFeedTest {

  static final String NASTY = "<script>alert('x')</script> & \"quoted\" ]]> \u0001bell";

  @Test
  void everyTextAndAddressIsEscapedAndCharactersXmlCannotHoldAreDropped() throws Exception {
    var entry = new AtomFeed.Entry("https://perf.example.org/summaries/1#opened", NASTY, Instant.parse(
        "2026-12-07T21:00:00.123Z"), "https://perf.example.org/summaries/1?a=1&b=\"2\"", "note: " + NASTY);
    String xml = AtomFeed.write(new AtomFeed.Feed("https://perf.example.org/feeds/summaries.atom", "t " + NASTY,
        "https://perf.example.org/feeds/summaries.atom", "https://perf.example.org/summaries", List.of(entry)));

    assertThat(xml).doesNotContain("<script>").doesNotContain("\u0001");
    SyndFeed feed = new SyndFeedInput().build(new StringReader(xml));
    String clean = NASTY.replace("\u0001", "");
    assertThat(feed.getTitle()).isEqualTo("t " + clean);
    SyndEntry read = feed.getEntries().get(0);
    assertThat(read.getTitle()).isEqualTo(clean);
    assertThat(read.getDescription().getValue()).isEqualTo("note: " + clean);
    assertThat(read.getLink()).isEqualTo("https://perf.example.org/summaries/1?a=1&b=\"2\"");
    assertThat(read.getUri()).isEqualTo("https://perf.example.org/summaries/1#opened");
    assertThat(read.getUpdatedDate().toInstant()).isEqualTo(Instant.parse("2026-12-07T21:00:00Z"));
  }

  @Test
  void anEmptyFeedIsValidAtomAndItsEntriesComeNewestFirstAtMostAHundred() throws Exception {
    assertThat(new SyndFeedInput().build(new StringReader(AtomFeed.write(new AtomFeed.Feed("urn:x", "empty", "urn:x",
        "urn:y", List.of())))).getEntries()).isEmpty();
    List<AtomFeed.Entry> many = java.util.stream.IntStream.range(0, 150).mapToObj(i -> new AtomFeed.Entry("urn:e" + i,
        "e" + i, Instant.ofEpochSecond(1_800_000_000L + i), "https://x.org/" + i, "")).toList();
    SyndFeed feed = new SyndFeedInput().build(new StringReader(AtomFeed.write(new AtomFeed.Feed("urn:x", "many",
        "urn:x", "urn:y", many))));
    assertThat(feed.getEntries()).hasSize(AtomFeed.MAX_ENTRIES);
    assertThat(feed.getEntries().get(0).getTitle()).isEqualTo("e149");
  }
}
