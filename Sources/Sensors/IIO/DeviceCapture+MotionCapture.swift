extension DeviceCapture: MotionCapture {}
