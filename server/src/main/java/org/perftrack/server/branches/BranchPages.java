package org.perftrack.server.branches;

import org.perftrack.server.dashboard.PageNotFound;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/** The branch page: a branch's builds, and each one's verdicts against its start point. */
@Controller
class BranchPages {

  private final Branches branches;

  BranchPages(Branches branches) {
    this.branches = branches;
  }

  @GetMapping("/products/{product}/branches/{*branch}")
  String branch(@PathVariable String product, @PathVariable String branch, Model model) {
    String name = BranchesApiController.strip(branch);
    model.addAttribute("detail", branches.find(product, name)
        .orElseThrow(() -> new PageNotFound("product " + product + " has no branch " + name)));
    return "branches/branch";
  }
}
