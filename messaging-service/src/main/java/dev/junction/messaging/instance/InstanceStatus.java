package dev.junction.messaging.instance;

/** Connection state of an instance. */
public enum InstanceStatus {

	DISCONNECTED, CONNECTING, CONNECTED, ERROR

}
