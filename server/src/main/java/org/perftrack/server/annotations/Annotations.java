package org.perftrack.server.annotations;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.perftrack.server.audit.Audit;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.perftrack.server.summaries.Summaries;
import org.perftrack.server.summaries.Summary;
import org.perftrack.server.web.Wording;
import org.perftrack.wire.Quantities;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The notes on the charts: made by people (checked field by field, recorded in the audit log), read by the API and
 * the pages, placed on a product's charts, listed near a regression or a summary, and named as the cause of a
 * summary triaged as infrastructure. The templates call it as {@code @annotations}.
 */
@Service
public class Annotations {

  static final int MAX_TEXT = 300;
  static final int MAX_LINK = 500;
  static final int MAX_LIMIT = 1000;
  /** What a summary triaged as caused by the infrastructure is set to: not a regression of the product. */
  static final Regression.Status INFRASTRUCTURE = Regression.Status.INVALID;

  /** A note as a person writes it: a time ({@code at}) or a version (of {@code product}), a scope, text, a link. */
  public record Draft(String at, String version, String product, String machine, String text, String link) {}

  /** The notes near a regression or a summary, and sentences about machines that changed alike the same day. */
  public record Near(List<String> sameDay, List<Annotation> notes) {

    public boolean isEmpty() {
      return notes.isEmpty();
    }
  }

  private final AnnotationStore store;
  private final Summaries summaries;
  private final Audit audit;

  Annotations(AnnotationStore store, Summaries summaries, Audit audit) {
    this.store = store;
    this.summaries = summaries;
    this.audit = audit;
  }

  /** Stores a person's note; every bad field is a 400 naming it, and nothing is stored then. */
  @Transactional
  public Annotation create(Draft d, String by) {
    String text = text(d.text());
    String link = link(d.link());
    Instant at = Times.parse("at", d.at());
    String version = blankToNull(d.version());
    if ((at == null) == (version == null)) {
      throw new InvalidInput("at", at == null ? "give a time (at) or a version" : "give a time (at) or a version,"
          + " not both");
    }
    Long productId = blankToNull(d.product()) == null ? null : product("product", d.product().strip());
    Long machineId = blankToNull(d.machine()) == null ? null : machine("machine", d.machine().strip());
    Long versionId = null;
    if (version != null) {
      if (productId == null) {
        throw new InvalidInput("product", "a note at a version names the product of that version");
      }
      versionId = store.versionId(productId, version)
          .orElseThrow(() -> new InvalidInput("version", "product " + d.product().strip() + " has no version " + version));
    }
    long id = store.insert(new AnnotationStore.Row(Annotation.Kind.NOTE, at, productId, machineId, versionId, text,
        link, null, null, null, by)).orElseThrow();
    Annotation a = store.find(id).orElseThrow();
    audit.record(by, "noted", "annotation " + id, a.when() + ", " + a.scope() + ": " + text);
    return a;
  }

  public Optional<Annotation> find(long id) {
    return store.find(id);
  }

  /** Newest first, filtered by the product and machine they apply to, their kind and a time range. */
  public List<Annotation> list(String product, String machine, String kind, String from, String to, int limit) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new InvalidInput("limit", "must be between 1 and " + Quantities.count(MAX_LIMIT));
    }
    Annotation.Kind k = null;
    if (blankToNull(kind) != null) {
      k = Arrays.stream(Annotation.Kind.values()).filter(x -> x.wire().equals(kind.strip())).findFirst()
          .orElseThrow(() -> new InvalidInput("kind", "must be note or environment"));
    }
    Long productId = blankToNull(product) == null ? null : product("product", product.strip());
    Long machineId = blankToNull(machine) == null ? null : machine("machine", machine.strip());
    return store.list(productId, machineId, k, Times.parse("from", from), Times.parse("to", to), limit);
  }

  /** The notes that fall on the chart of these series, each at the version it falls at. */
  public List<Placed> onChart(List<Long> seriesIds) {
    if (seriesIds.isEmpty()) {
      return List.of();
    }
    List<long[]> pm = store.productAndMachines(seriesIds);
    List<Long> machines = pm.stream().map(x -> x[1]).distinct().toList();
    return store.placed(pm.get(0)[0], machines).stream()
        .map(p -> new Placed(p.note(), p.version(), p.sortKey())).toList();
  }

  /** A note on a chart: the version it falls at and that version's sort key. */
  public record Placed(Annotation note, String version, String sortKey) {}

  /** The notes on a regression's machine that fall in its step: after its baseline, up to its version. */
  public Near near(Regression r) {
    return near(List.of(r));
  }

  /** The notes near the summary's members. */
  public Near near(Summary s) {
    return near(s.members());
  }

  /** Each machine's chart is placed once; a member keeps the notes in its step (after its baseline, to its version). */
  private Near near(List<Regression> members) {
    Map<Long, Annotation> notes = new LinkedHashMap<>();
    Optional<Long> productId = members.isEmpty() ? Optional.empty() : store.productId(members.get(0).product());
    if (productId.isEmpty()) {
      return new Near(List.of(), List.of());
    }
    Map<String, String> keys = new HashMap<>();
    Function<String, String> key = v -> keys.computeIfAbsent(v,
        x -> store.sortKey(productId.get(), x).orElse(""));
    Map<String, List<Regression>> byMachine = members.stream()
        .collect(Collectors.groupingBy(Regression::machine, LinkedHashMap::new,
            Collectors.toList()));
    byMachine.forEach((machine, steps) -> store.machineId(machine).ifPresent(machineId -> {
      List<AnnotationStore.Placed> placed = store.placed(productId.get(), List.of(machineId));
      for (Regression r : steps) {
        String from = key.apply(r.baselineVersion());
        String to = key.apply(r.version());
        placed.stream().filter(p -> p.sortKey().compareTo(from) > 0 && p.sortKey().compareTo(to) <= 0)
            .forEach(p -> notes.putIfAbsent(p.note().id(), p.note()));
      }
    }));
    return new Near(sameDay(notes.values(), productId.get()), List.copyOf(notes.values()));
  }

  /** "3 machines had an antivirus change the same day (2026-12-07): xp-1, xp-2, xp-3". */
  private List<String> sameDay(Collection<Annotation> notes, long productId) {
    Set<String> out = new LinkedHashSet<>();
    for (Annotation a : notes) {
      if (a.kind() != Annotation.Kind.ENVIRONMENT || a.subject() == null || a.at() == null) {
        continue;
      }
      List<String> machines = store.machinesChangedSameDay(a.subject(), a.at(), productId);
      if (machines.size() > 1) {
        out.add(Wording.count(machines.size(), "machine") + " had " + article(a.subject()) + " change the same day ("
            + Times.day(a.at()) + "): " + String.join(", ", machines));
      }
    }
    return new ArrayList<>(out);
  }

  private static String article(String subject) {
    return (subject.matches("(?i)^[aeio].*") ? "an " : "a ") + subject;
  }

  /** The note a summary was triaged as caused by, if any. */
  public Optional<Annotation> causeOf(long summaryId) {
    return store.causeOf(summaryId);
  }

  /**
   * Triages a summary as caused by the infrastructure: its members are set to invalid (no regression of the
   * product) with a note naming the event, and the summary keeps which note explains it.
   */
  @Transactional
  public Summary explain(long summaryId, Long annotationId, String by) {
    if (annotationId == null) {
      throw new InvalidInput("annotation", "name the note (its id) of the event that caused it");
    }
    Annotation a = store.find(annotationId)
        .orElseThrow(() -> new InvalidInput("annotation", "there is no note " + annotationId));
    Summary s = summaries.triage(summaryId, INFRASTRUCTURE, "infrastructure: " + a.text() + " (" + a.when() + ", "
        + a.scope() + ")", Map.of(), by).orElseThrow(() -> new NotFound("no summary " + summaryId));
    store.setCause(summaryId, annotationId, by);
    audit.record(by, "explained", "summary " + summaryId, "infrastructure: annotation " + annotationId);
    return s;
  }

  static String text(String text) {
    String t = text == null ? "" : text.strip();
    if (t.isEmpty()) {
      throw new InvalidInput("text", "say what happened (e.g. antivirus updated to NOD32 2.70.40)");
    }
    if (t.length() > MAX_TEXT || t.chars().anyMatch(Character::isISOControl)) {
      throw new InvalidInput("text", "must be one line of at most " + Quantities.count(MAX_TEXT) + " characters");
    }
    return t;
  }

  /** An optional link: an absolute http or https URL of at most {@value #MAX_LINK} characters. */
  static String link(String link) {
    String l = blankToNull(link);
    if (l == null) {
      return null;
    }
    if (l.length() > MAX_LINK) {
      throw new InvalidInput("link", "must be at most " + Quantities.count(MAX_LINK) + " characters");
    }
    try {
      URI u = new URI(l);
      String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(java.util.Locale.ROOT);
      if (!(scheme.equals("http") || scheme.equals("https")) || u.getHost() == null) {
        throw new InvalidInput("link", "must be an http or https address (https://…)");
      }
    } catch (URISyntaxException e) {
      throw new InvalidInput("link", "is not an address: " + e.getReason());
    }
    return l;
  }

  private long product(String field, String name) {
    return store.productId(name).orElseThrow(() -> new InvalidInput(field, "there is no product " + name));
  }

  private long machine(String field, String name) {
    return store.machineId(name).orElseThrow(() -> new InvalidInput(field, "there is no machine " + name));
  }

  static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }
}
