package org.perftrack.server.web;

import org.springframework.stereotype.Component;

/** {@link Wording} for the templates: {@code ${@words.count(n, 'machine')}} → "1 machine", "3 machines". */
@Component("words")
public class Words {

  public String count(long n, String noun) {
    return Wording.count(n, noun);
  }

  public String ratio(Double r) {
    return r == null ? "—" : Wording.ratio(r);
  }
}
