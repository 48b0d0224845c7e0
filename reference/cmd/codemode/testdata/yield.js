// Suspends once at yield_control, then completes after wait.
text("before");
const resumed = await yield_control("pause");
text("after");
return resumed;
