package org.perftrack.server.machines;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.perftrack.server.dashboard.PageNotFound;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/** The machine page: attributes, versions measured. */
@Controller
class MachineController {

  private final MachineQueries machines;

  MachineController(MachineQueries machines) {
    this.machines = machines;
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
}
