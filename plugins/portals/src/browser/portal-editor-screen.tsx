import { PortalEditorScreen } from './portal-screens';

export default PortalEditorScreen;
