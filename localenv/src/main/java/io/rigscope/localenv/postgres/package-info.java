/**
 * A private PostgreSQL run as the postgres OS user, on a loop volume when asked. Uses net. Threads: open and close
 * from one thread; commands block on the processes they start.
 */
package io.rigscope.localenv.postgres;
