package org.perftrack.server.web;

import org.perftrack.wire.Quantities;
import org.springframework.stereotype.Component;

/**
 * {@link Wording} for the templates: {@code ${@words.count(n, 'machine')}} → "1 machine", "3 machines";
 * {@code ${@words.number(n)}} → "24,105".
 */
@Component("words")
public class Words {

  public String count(long n, String noun) {
    return Wording.count(n, noun);
  }

  /** A count as {@link Quantities#count} writes it: "1024", "24,105"; "—" for none. */
  public String number(Long n) {
    return n == null ? "—" : Quantities.count(n);
  }

  public String ratio(Double r) {
    return r == null ? "—" : Wording.ratio(r);
  }
}
