package dev.junction.messaging.message;

/** Whether a message came in from the network or went out to it. */
public enum Direction {

	INBOUND, OUTBOUND

}
