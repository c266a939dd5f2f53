package org.perftrack.server.branches;

import org.perftrack.server.pages.DeletedNotFound;
import org.perftrack.server.problems.NotFound;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/** The branch page: a branch's builds, and each one's verdicts against its start point. */
@Controller
class BranchPages {

  private final Branches branches;
  private final DeletedNotFound deleted;

  BranchPages(Branches branches, DeletedNotFound deleted) {
    this.branches = branches;
    this.deleted = deleted;
  }

  @GetMapping("/products/{product}/branches/{*branch}")
  String branch(@PathVariable String product, @PathVariable String branch, Model model) {
    String name = BranchesApi.strip(branch);
    try {
      model.addAttribute("detail", branches.find(product, name).orElseThrow(() -> deleted.noBranch(product, name)));
    } catch (NotFound e) { // no product of that name
      throw deleted.noBranch(product, name);
    }
    return "branches/branch";
  }
}
