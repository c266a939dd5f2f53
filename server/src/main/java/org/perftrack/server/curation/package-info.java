/**
 * Curating the data: excluding runs from judgement, deleting runs, versions, products, machines, branches and lab
 * agents (soft, restorable until purged), renaming and merging machines. Owns {@code deletion} and
 * {@code result_set_aside}, and changes the other packages' rows on purpose, one transaction per change, recorded in
 * the audit log. API {@code CurationApi}, pages {@code CurationPages}.
 */
package org.perftrack.server.curation;
