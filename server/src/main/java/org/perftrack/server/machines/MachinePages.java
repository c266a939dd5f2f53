package org.perftrack.server.machines;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.perftrack.server.pages.DeletedNotFound;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;

/** The machine page: attributes, versions measured. */
@Controller
class MachinePages {

  private final MachineQueries machines;

  private final DeletedNotFound deleted;

  MachinePages(MachineQueries machines, DeletedNotFound deleted) {
    this.machines = machines;
    this.deleted = deleted;
  }

  /** Versions per product on one page of the machine's history. */
  static final int PAGE = 50;

  /** One product's versions on this page, and the version to page on from when there are older ones. */
  record ProductVersions(String product, List<MachineQueries.Measured> versions, String olderThan) {}

  @GetMapping("/machines/{name}")
  String machine(@PathVariable String name, @RequestParam(required = false) String product,
      @RequestParam(required = false) String olderThan, Model model) {
    MachineQueries.Machine machine = machines.find(name).orElseThrow(() -> deleted.noMachine(name));
    String only = product == null || product.isBlank() ? null : product;
    Map<String, List<MachineQueries.Measured>> byProduct = machines.measured(machine.id(), only,
        olderThan == null || olderThan.isBlank() ? null : olderThan, PAGE).stream()
        .collect(Collectors.groupingBy(MachineQueries.Measured::product, LinkedHashMap::new, Collectors.toList()));
    List<ProductVersions> pages = byProduct.entrySet().stream().map(e -> e.getValue().size() > PAGE
        ? new ProductVersions(e.getKey(), e.getValue().subList(0, PAGE), e.getValue().get(PAGE - 1).version())
        : new ProductVersions(e.getKey(), e.getValue(), null)).toList();
    model.addAttribute("machine", machine);
    model.addAttribute("byProduct", pages);
    model.addAttribute("paged", only != null);
    model.addAttribute("hidden", pages.isEmpty() && only == null ? machines.hidden(machine.id()) : null);
    return "machines/machine";
  }
}
