package org.perftrack.server.compare;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/compare?base=linux@6.1.0&head=cygwin@1.5.24-2&machine=…[&baseMachine=…]}: two
 * products compared, the ratio being the layer's overhead. Without {@code product} the versions name
 * their products; {@code baseMachine} is a machine declared comparable (same hardware) when the
 * baseline was measured on another one.
 */
@RestController
class OverheadApi {

  private final Overhead overhead;

  OverheadApi(Overhead overhead) {
    this.overhead = overhead;
  }

  @GetMapping(path = "/api/v1/compare", params = "!product")
  Overhead.Result compare(@RequestParam String base, @RequestParam String head, @RequestParam String machine,
      @RequestParam(required = false) String baseMachine) {
    return overhead.compare(
        Overhead.side(base, baseMachine == null || baseMachine.isBlank() ? machine : baseMachine, "base"),
        Overhead.side(head, machine, "head"));
  }
}
