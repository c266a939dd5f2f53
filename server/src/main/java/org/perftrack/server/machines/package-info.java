/**
 * The machine page {@code /machines/{name}} ({@code MachinePages}): how a machine describes itself and what was
 * measured on it.
 */
package org.perftrack.server.machines;
