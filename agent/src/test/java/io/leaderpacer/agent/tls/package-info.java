/**
 * The agent on real TLS, SASL_SSL and mutual-TLS clusters, with certificates made at test time: its core story on
 * each, the one-line errors of a failed handshake, and that no key, password or store secret ever shows.
 */
package io.leaderpacer.agent.tls;
