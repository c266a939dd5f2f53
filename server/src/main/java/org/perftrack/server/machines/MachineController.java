package org.perftrack.server.machines;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.perftrack.server.dashboard.PageNotFound;
import org.perftrack.server.series.RunQueries;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/** The machine page (attributes, versions measured) and the run page (raw samples, environment). */
@Controller
class MachineController {

  private final MachineQueries machines;
  private final RunQueries runs;

  MachineController(MachineQueries machines, RunQueries runs) {
    this.machines = machines;
    this.runs = runs;
  }

  @GetMapping("/machines/{name}")
  String machine(@PathVariable String name, Model model) {
    MachineQueries.Machine machine = machines.find(name).orElseThrow(() -> new PageNotFound("no machine " + name));
    Map<String, List<MachineQueries.Measured>> byProduct = machines.measured(machine.id()).stream()
        .collect(Collectors.groupingBy(MachineQueries.Measured::product, LinkedHashMap::new, Collectors.toList()));
    model.addAttribute("machine", machine);
    model.addAttribute("byProduct", byProduct);
    return "machines/machine";
  }

  @GetMapping("/runs/{id}")
  String run(@PathVariable String id, Model model) {
    UUID uuid;
    try {
      uuid = UUID.fromString(id);
    } catch (IllegalArgumentException e) {
      throw new PageNotFound("no run " + id);
    }
    model.addAttribute("run", runs.find(uuid).orElseThrow(() -> new PageNotFound("no run " + id)));
    return "runs/run";
  }
}
