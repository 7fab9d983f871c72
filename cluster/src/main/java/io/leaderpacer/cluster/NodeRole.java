package io.leaderpacer.cluster;

/** What a node of the cluster is: the one controller, or one of the brokers. */
enum NodeRole {
    CONTROLLER("controller"),
    BROKER("broker");

    /** Word used in directory names and messages ("broker 1 exited ..."). */
    final String word;

    NodeRole(String word) {
        this.word = word;
    }
}
