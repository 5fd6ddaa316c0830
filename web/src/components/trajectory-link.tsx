import { trajectoryPath, type Navigate } from '../state/use-route.js';

/** From a run to its recording; offered only for a run that kept one. */
export function TrajectoryLink({ runId, navigate }: { runId: string; navigate: Navigate }) {
  return (
    <a
      className="trajectory-link"
      href={trajectoryPath(runId)}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigate(trajectoryPath(runId));
      }}
    >
      Step through the recording and fork it
    </a>
  );
}
