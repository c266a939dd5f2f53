/**
 * Notes on the charts: an event that moves many series at once (an antivirus update, a Windows patch, an agent
 * upgrade), at a time or a version, for every product, a product or a machine (table {@code annotation}; a
 * summary's cause, {@code annotation_cause}). People write them on
 * {@code /annotations} or through {@code /api/v1/annotations} ({@code AnnotationsApi}, {@code AnnotationPages});
 * {@code EnvironmentNotes} writes one when a machine's run shows its environment changed since its previous run.
 * {@code Annotations} places them on the series charts, lists those near a regression or a summary, and triages a
 * summary as caused by the infrastructure. Deleting one is curation's (soft, with undo), like every deletion.
 */
package org.perftrack.server.annotations;
