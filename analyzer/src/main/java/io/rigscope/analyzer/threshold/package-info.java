/**
 * k6's threshold grammar ({@code p(99)<250}, {@code rate<0.01}) and its verdicts, shared by the gates and the k6
 * importer. Uses no other analyzer package. Threads: stateless and thread-safe.
 */
package io.rigscope.analyzer.threshold;
